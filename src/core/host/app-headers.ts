/**
 * The headers the conventions add to responses they do not build: those of the app's own code
 * (its routes and hooks) and the host's own answers. The core's own responses carry them already.
 */
import type { ResponseHeaders } from '../http/headers.ts';
import type { BoundHost } from './bind-host.ts';

const none: Readonly<ResponseHeaders> = Object.freeze({});

/**
 * The headers the conventions add to a response of the app's own code: the ones the request's
 * checks gathered so far (rate-limit, CORS, a request id), after the always-on headers when
 * `alwaysOn` (where the host has not put those on the response yet). An empty record when there
 * are none; a request the binding never opened has only the always-on headers.
 *
 * @category Host binding
 */
export function appHeaders(
  host: BoundHost<object>,
  native: object,
  alwaysOn = false,
): Readonly<ResponseHeaders> {
  const ctx = host.held(native);
  const gathered = ctx?.hasResponseHeaders ? ctx.responseHeaders.record : undefined;
  if (!alwaysOn) return gathered ?? none;
  return gathered === undefined ? host.alwaysOnHeaders : { ...host.alwaysOnHeaders, ...gathered };
}

const compared = new WeakSet<object>();

/**
 * Names, at an app's (`app`'s) first request, each always-on header that code ahead of the
 * conventions (helmet, say) set to another value on the response (`current` reads it there): the
 * conventions' value is the one sent, since a host puts {@link appHeaders} with the always-on
 * headers over it, and the warning says where to set it instead.
 *
 * @category Host binding
 */
export function warnReplacedHeaders(
  host: BoundHost<object>,
  app: object,
  current: (name: string) => unknown,
): void {
  if (compared.has(app)) return;
  compared.add(app);
  const alwaysOn = host.alwaysOnHeaders;
  for (const name in alwaysOn) {
    const before = current(name);
    const value = String(alwaysOn[name]);
    if (before === undefined || String(before) === value) continue;
    host.logger.warn(
      `${name} was "${String(before)}" before the conventions' middleware (helmet, or other middleware ahead of it): the conventions send "${value}". Set it through the conventions' securityHeaders() options instead, and drop it from the other middleware.`,
    );
  }
}
