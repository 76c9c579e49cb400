/** The request pipeline: `conventions()`, the request context, identity and the plugin seams. */

export {
  type ParsedBody,
  type ReadBodyOptions,
  RequestContext,
  type RequestInput,
  type RequestState,
} from './context.ts';
export {
  Conventions,
  conventions,
  isConventions,
  toConventions,
} from './conventions.ts';
export { hasScopes, type Identity } from './identity.ts';
export type { ConventionsOptions } from './options.ts';
export type {
  CheckResult,
  Downstream,
  Guarded,
  GuardPassed,
  GuardStopped,
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
export { jsonSerializer } from './serialize.ts';
export { andThen, type Step, settle } from './steps.ts';
