/**
 * `api-conventions/host`: what a host of your own needs to serve the conventions on a framework
 * the library has no adapter for: the binding (`bindHost`), the Web `Request` and `Response`
 * translation, a router's match list read as routes, the answers to requests the server refused
 * before the library could read them, and the error response for anything thrown. Services do
 * not need it: an adapter does (`api-conventions/node` and its siblings). How a host is bound,
 * step by step: [Extending](../docs/extending.md#hosts-with-their-own-router).
 *
 * @module api-conventions/host
 */
export {
  type ApiResponse,
  type AppRoute,
  type AppRouteSource,
  appRoutesOfEntries,
  type BodyDecoder,
  BoundHost,
  bindHost,
  type Companion,
  errorToResponse,
  type FailurePlace,
  type FetchHostOptions,
  fromHttpError,
  type Guarded,
  type HostBinding,
  type HostErrorFacts,
  type HostMatch,
  MatchedEntries,
  type MatchedEntry,
  type MatchList,
  type ParsedBody,
  type ReadBodyOptions,
  type Refusal,
  type RefusalResponse,
  type RequestInput,
  refusalResponse,
  refusalResponseFor,
  type Step,
  toWebResponse,
  webInput,
  withAppHeaders,
} from '#core';
