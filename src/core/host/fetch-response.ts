/**
 * The core's responses as Web-standard `Response`s, the same on every host that serves with the
 * Fetch API (Hono, Bun, Deno, workers), and the header policy for the app's own `Response`s there.
 */
import type { Logger } from '../errors/logger.ts';
import { errorToResponse } from '../http/error-response.ts';
import { HeaderBag } from '../http/headers.ts';
import type { ApiResponse } from '../http/response.ts';
import { andThen, type Step } from '../kernel/steps.ts';
import type { BoundHost } from './bind-host.ts';

/**
 * A core response as a Fetch `Response`, now or once it is ready; an array value becomes repeated
 * header lines. The core has already refused header names and values a host cannot send; should
 * the runtime still refuse the response, that becomes a logged 500.
 *
 * @category Host binding
 */
export function toWebResponse(response: ApiResponse, logger: Logger): Response;
export function toWebResponse(response: Step<ApiResponse>, logger: Logger): Step<Response>;
export function toWebResponse(response: Step<ApiResponse>, logger: Logger): Step<Response> {
  return andThen(response, (ready) => webResponse(ready, logger));
}

function webResponse({ status, headers, body }: ApiResponse, logger: Logger): Response {
  let init = headers as Record<string, string> | Headers;
  for (const name in headers) {
    if (typeof headers[name] === 'string') continue;
    init = new Headers();
    for (const [key, value] of Object.entries(headers)) {
      for (const item of typeof value === 'string' ? [value] : value) init.append(key, item);
    }
    break;
  }
  try {
    return new Response(body as BodyInit | null, { status, headers: init });
  } catch (error) {
    const failed = errorToResponse(error, logger);
    return new Response(failed.body as string, {
      status: failed.status,
      headers: failed.headers as Record<string, string>,
    });
  }
}

/**
 * One of the app's own responses to `native` with the always-on headers it lacks and the headers
 * the checks gathered for it (`Vary` merged, `Set-Cookie` and `Link` added, any other kept where
 * the app set it). A response from `fetch()` has immutable headers, so it is copied once.
 *
 * @category Host binding
 */
export function withAppHeaders<Native extends object>(
  response: Response,
  host: BoundHost<Native>,
  native: Native,
): Response {
  const ctx = host.context(native);
  const gathered = ctx.hasResponseHeaders ? ctx.responseHeaders : undefined;
  const alwaysOn = host.alwaysOnHeaders;
  let copy = response;
  try {
    response.headers.set('x-probe-mutable', '');
    response.headers.delete('x-probe-mutable');
  } catch {
    copy = new Response(response.body, response);
  }
  const { headers } = copy;
  if (gathered !== undefined) {
    const merged = new HeaderBag({ vary: headers.get('vary') ?? undefined }).merge(gathered);
    for (const [name, value] of Object.entries(merged.record)) {
      if (name === 'vary') headers.set(name, String(value));
      else if (name === 'set-cookie' || name === 'link') {
        for (const item of [value].flat()) headers.append(name, item);
      } else if (!headers.has(name)) headers.set(name, [value].flat().join(', '));
    }
  }
  for (const name in alwaysOn) if (!headers.has(name)) headers.set(name, String(alwaysOn[name]));
  return copy;
}
