/** The host binding: the steps every adapter runs, built from what it knows of its host. */
export type { HostMatch } from '../pipeline/fail-closed.ts';
export { appHeaders } from './app-headers.ts';
export {
  type AppRouteSource,
  BoundHost,
  bindHost,
  type HostBinding,
  heldContext,
  hostAnswer,
  hostAnswerFor,
} from './bind-host.ts';
export {
  type Checkpoint,
  type CheckpointBinding,
  type CheckpointGuard,
  type Checkpoints,
  checkpoints,
  enterAfter,
} from './checkpoints.ts';
export type { Companion } from './companions.ts';
export {
  type DeclaredRoute,
  type DispatchedRoute,
  dispatchedSettings,
  useDeclaredRoutes,
} from './declared-routes.ts';
export { fromHostError, type HostErrorFacts, hostFailureOf } from './host-errors.ts';
export { markOf, markStep, originalOf, type StepMark } from './marks.ts';
export { routeSchemasOf } from './route-schemas.ts';
export type { RouteHandler, StackProbe } from './stack-probe.ts';
export { catchAllPath, tablePattern } from './wildcards.ts';
