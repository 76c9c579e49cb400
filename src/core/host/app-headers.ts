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
 * @example
 * ```ts
 * import { conventions } from 'api-conventions';
 * import { appHeaders, bindHost, type RequestInput } from 'api-conventions/host';
 *
 * const api = conventions({});
 * const host = bindHost<RequestInput>(api, { input: (input) => input });
 *
 * // Before the app's own code answers: what the conventions add to its response.
 * export async function headersFor(input: RequestInput) {
 *   const stopped = await host.enter(input);
 *   return stopped === undefined ? appHeaders(host, input, true) : stopped.headers;
 * }
 * ```
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
