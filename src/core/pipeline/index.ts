/** The request pipeline: `conventions()`, the request context and the plugin seams. */
export { Conventions, type ConventionsOptions, conventions } from './conventions.ts';
export { RequestContext, type RequestInput, type RequestState } from './context.ts';
export type { CheckResult, Plugin } from './plugin.ts';
export { serialize } from './serialize.ts';
