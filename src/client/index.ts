/** The client: calls, errors, paging and the types read from a service's routes. */
export type { CachedResponse, ResponseCache } from './cache.ts';
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
export { ApiResponseError, type ClientErrorEntry, isApiResponseError } from './errors.ts';
export type { DeprecationNotice } from './headers.ts';
export type { OAuthClientOptions } from './oauth.ts';
export type { ClientOptions, RetryOptions } from './options.ts';
export type { PagingOptions } from './paginate.ts';
export type { ClientResponse } from './send.ts';
export type {
  BodyOf,
  BodyPart,
  CallOptions,
  ClientMethod,
  CommonCallOptions,
  FieldsOf,
  InputOf,
  ItemOf,
  ListQuery,
  Nothing,
  PagingQuery,
  ParamsOf,
  ParamsPart,
  PathsWith,
  QueryOf,
  ResponseOf,
  ResultOf,
  RouteAt,
  RoutesOf,
  Select,
  SelectionParts,
  SettingsOf,
  TypedCallOptions,
  Whole,
  Wire,
} from './types.ts';
export type { QueryValue } from './url.ts';
