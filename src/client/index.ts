/** The client: calls, errors, paging and the types read from a service's routes. */

export type {
  BodyOf,
  BodyRequiredOf,
  FieldsOf,
  InputOf,
  ItemOf,
  ListQuery,
  PagingQuery,
  QueryOf,
  ResponseOf,
  ResultOf,
  ViewsOf,
} from './body-types.ts';
export type { CachedResponse, ResponseCache } from './cache.ts';
export type {
  BodyPart,
  CallOptions,
  CommonCallOptions,
  OptionsRequiredOf,
  ParamsPart,
  PathParamsOf,
  SelectionParts,
  TypedCallOptions,
} from './call-types.ts';
export {
  type Client,
  type ClientMethods,
  createClient,
  type ItemsOf,
  type MethodOf,
  type OptionsArg,
  type TypedMethod,
  type TypedPaginate,
  type UntypedMethod,
  type UntypedPaginate,
} from './create-client.ts';
export {
  ApiResponseError,
  type ClientErrorCode,
  type ClientErrorEntry,
  isApiResponseError,
} from './errors.ts';
export type { DeprecationNotice } from './headers.ts';
export type { OAuthClientOptions } from './oauth.ts';
export type {
  OpenApiBody,
  OpenApiBodyRequired,
  OpenApiFields,
  OpenApiFullQuery,
  OpenApiIsList,
  OpenApiItem,
  OpenApiJson,
  OpenApiMethodKey,
  OpenApiPathParams,
  OpenApiPaths,
  OpenApiQuery,
  OpenApiResponse,
  OpenApiResult,
  OpenApiRoute,
  OpenApiSelected,
  OpenApiSuccessJson,
  OpenApiViews,
} from './openapi-types.ts';
export type { ClientOptions, RetryOptions } from './options.ts';
export type { PagingOptions } from './paginate.ts';
export {
  ClientRefusedError,
  isClientRefusedError,
  type RefusalReason,
} from './refused.ts';
export type {
  ClientMethod,
  Nothing,
  ParamsOf,
  PathsWith,
  RouteAt,
  RoutesOf,
  SettingsOf,
} from './route-types.ts';
export type { Select, Whole, Wire } from './selection-types.ts';
export type { ClientResponse } from './send.ts';
export type { SignInOptions, SignInStorage } from './sign-in.ts';
export type { QueryValue } from './url.ts';
