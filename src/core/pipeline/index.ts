/** The request pipeline: `conventions()`, the request context and the plugin seams. */

export {
  type ParsedBody,
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
export type { ConventionsOptions } from './options.ts';
export type { CheckResult, Guarded, GuardPassed, GuardStopped, Plugin } from './plugin.ts';
export { serialize } from './serialize.ts';
export type { Step } from './steps.ts';
