/** The host binding: the steps every adapter runs, built from what it knows of its host. */
export type { HostMatch } from '../pipeline/fail-closed.ts';
export { appHeaders, warnReplacedHeaders } from './app-headers.ts';
export { BoundHost, bindHost, heldContext } from './bind-host.ts';
export type { AppRouteSource, HostBinding } from './binding.ts';
export {
  bindCheckpoints,
  type CheckpointHost,
  type CheckpointHostBinding,
} from './checkpoint-host.ts';
export {
  type Checkpoint,
  type CheckpointBinding,
  type CheckpointGuard,
  type Checkpoints,
  enterAfter,
} from './checkpoints.ts';
export {
  type AppHandler,
  CompanionFinder,
  companionOf,
  type FinderHost,
  type StackPlaces,
} from './companion-finder.ts';
export type { Companion } from './companions.ts';
export {
  type DeclaredRoute,
  type DispatchedRoute,
  dispatchedSettings,
  useDeclaredRoutes,
} from './declared-routes.ts';
export { appRoutesOfEntries } from './entry-routes.ts';
export {
  assertFetchHostOptions,
  type FetchHostOptions,
  type RemoteAddress,
  requestFailureOf,
  webInput,
} from './fetch-request.ts';
export { toWebResponse, withAppHeaders } from './fetch-response.ts';
export { fromHostError, type HostErrorFacts, refusalOf } from './host-errors.ts';
export { warnWithoutAddress } from './host-options.ts';
export { markOf, markStep, originalOf, type StepMark } from './marks.ts';
export { MatchedEntries, type MatchedEntry, type MatchList } from './matched-entries.ts';
export { isBodyParser, passesThrough } from './pass-through.ts';
export { refusalResponse, refusalResponseFor } from './refused.ts';
export { routeSchemasOf } from './route-schemas.ts';
export type { RouteHandler, StackProbe } from './stack-probe.ts';
export {
  type IssuePathKey,
  type IssuePathSegment,
  type StandardIssue,
  type ValidatorError,
  type ValidatorResult,
  validatorRejection,
} from './validator-results.ts';
export { catchAllPath, regexpParamPath, tablePattern } from './wildcards.ts';
