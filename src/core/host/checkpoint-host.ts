/**
 * The binding of a host whose router decides as it goes (Express, Koa): nothing is checked ahead
 * at `enter`, every route and piece of middleware gets a check point instead, and the route view
 * learns the app's routes from the stacks the check points cover. The adapter brings how to read
 * a request, where its app's stack is, and its check-point binding.
 */
import type { RequestInput } from '../kernel/context.ts';
import type { Conventions } from '../pipeline/conventions.ts';
import type { ConventionsOptions } from '../pipeline/options.ts';
import { type BoundHost, bindHost } from './bind-host.ts';
import { type CheckpointBinding, type Checkpoints, checkpoints } from './checkpoints.ts';

/**
 * What {@link bindCheckpoints} needs of the adapter: the check points' binding without the host
 * (made here), how to read a request, and the app's stack a request runs through.
 *
 * @category Host binding
 */
export interface CheckpointHostBinding<Native extends object, Layer, Route>
  extends Omit<CheckpointBinding<Native, Layer, Route>, 'host'> {
  /** The core's input for a native request ({@link HostBinding.input}). */
  input(native: Native): RequestInput;
  /** The app's stack of the request: its routes, routers and middleware, in order. */
  stack(native: Native): Layer[];
}

/**
 * The check points of an app, with the bound host they check with (`host`).
 *
 * @category Host binding
 */
export interface CheckpointHost<Native extends object, Layer, Route>
  extends Checkpoints<Native, Layer, Route> {
  /** The bound host, which checks at the check points only (`checkpoints: true`). */
  readonly host: BoundHost<Native>;
  /** The app's stack of a request ({@link CheckpointHostBinding.stack}). */
  stack(native: Native): Layer[];
}

/**
 * Binds a service to a host whose router decides as it goes: a bound host that checks each route
 * and piece of middleware as the host enters it (`checkpoints: true`), with the check points of
 * the app ({@link checkpoints}), whose routes the route view reads from the stacks they cover.
 *
 * @category Host binding
 */
export function bindCheckpoints<Native extends object, Layer, Route>(
  api: Conventions | ConventionsOptions,
  binding: CheckpointHostBinding<Native, Layer, Route>,
): CheckpointHost<Native, Layer, Route> {
  let kit: Checkpoints<Native, Layer, Route> | undefined;
  const host = bindHost(api, {
    input: binding.input,
    checkpoints: true,
    appRoutes: {
      size: (native) => kit!.size(binding.stack(native)),
      list: (native) => kit!.routes(binding.stack(native)),
    },
  });
  kit = checkpoints({ ...binding, host });
  return { ...kit, host, stack: binding.stack };
}
