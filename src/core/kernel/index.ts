/**
 * The kernel every folder of the core builds on: the request context, the route table's types,
 * the plugin contract and the steps that stay synchronous until something is asynchronous. It
 * imports no feature and not the pipeline.
 */
export { RequestContext, type RequestState } from './context.ts';
export { hasScopes, type Identity } from './identity.ts';
export type { ParsedBody, ReadBodyOptions, RequestInput } from './input.ts';
export type {
  CheckResult,
  DescribedApi,
  Downstream,
  Guarded,
  IdentityHooks,
  ObservationHooks,
  Plugin,
  PluginContributions,
  PluginSetup,
  RequestChecks,
  ResponseHooks,
  Serializer,
  StartupHooks,
} from './plugin.ts';
export {
  compileLogPlan,
  type LogFields,
  type LoggedRequest,
  type LogPlan,
  requestLogger,
} from './request-logger.ts';
export type {
  Handler,
  PathMethods,
  RouteDefinition,
  RouteInfo,
  RouteTable,
} from './route-table.ts';
export type {
  AppRoute,
  AppRouteSchemas,
  Method,
  RouteConfig,
  RouteSettings,
} from './route-types.ts';
export { andThen, type Step, settle } from './steps.ts';
