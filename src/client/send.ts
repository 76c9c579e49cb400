/**
 * One call, as the specification asks a client to make it: within the known rate limit, with
 * a conditional GET or `If-Match`, waiting out a 429 or 503, renewing a refused token once.
 */
import { encodeBody, readBody } from './body-codec.ts';
import { addConditions, forgetTag, remember, revalidated } from './conditional.ts';
import { ApiResponseError } from './errors.ts';
import { exchange } from './exchange.ts';
import { deprecationOf, isInvalidToken, limitOf, retryAfterOf } from './headers.ts';
import type { ClientState } from './options.ts';
import { reachOf } from './origins.ts';
import { ClientRefusedError, durationOf } from './refused.ts';
import { sleep } from './sleep.ts';

/**
 * A response as the client read it.
 *
 * @category Client
 */
export interface ClientResponse<T = unknown> {
  /** The status (a 304 answered from the cache keeps the stored status, 200). */
  readonly status: number;
  /** The headers (on a 304, the stored ones updated with the 304's). */
  readonly headers: Headers;
  /** The body: JSON parsed, other media types as text, `undefined` when there is none. */
  readonly body: T;
  /** Whether the body came from the cache after a 304 (RFC 9110 §15.4.5). */
  readonly cached: boolean;
}

/** What one call sends, its URL built already. */
export interface Call {
  readonly method: string;
  /** The route template, which names the endpoint for deprecation notices. */
  readonly template: string;
  readonly url: string;
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>> | undefined;
  readonly signal?: AbortSignal | undefined;
  /** Retry a write too (POST, PATCH) on 429 and 503. */
  readonly idempotent?: boolean | undefined;
}

// RFC 9110 §9.2.2: repeating these has the effect of sending them once.
const idempotentMethods = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

/** Sends `call`; resolves with the response, or rejects with an {@link ApiResponseError}. */
export async function send(state: ClientState, call: Call): Promise<ClientResponse> {
  const { method, url } = call;
  const encoded = encodeBody(call.body);
  const retryable = idempotentMethods.has(method) || call.idempotent === true;
  let attempts = 0;
  let renewed = false;
  // The call's own URL is on the base origin; a paging link may lead elsewhere.
  const reach = reachOf(state.origins, url, `${method} ${url}`, 'the URL');
  const gate = reach === 'own' ? state.gate : undefined;
  for (;;) {
    const { headers, token } = await headersOf(state, call, encoded.type, reach === 'own');
    const { cacheKey, stored } = addConditions(state, method, url, headers);
    await gate?.acquire(call.signal, state.maxWait, (wait) =>
      refusedWait(
        url,
        `${method} ${url}: the rate limit is spent until its reset in ${durationOf(wait)}, longer than retry.maxWait (${durationOf(state.maxWait)}); not sent.`,
        wait,
      ),
    );
    let res: Response;
    try {
      res = await exchange(
        state,
        { method, url, headers, body: encoded.body, signal: call.signal },
        reach,
      );
    } catch (error) {
      gate?.release(undefined);
      throw error;
    }
    const now = state.now();
    gate?.release(limitOf(res.headers, now));
    if (state.onDeprecation) notice(state, call, res.headers);

    if (res.status === 304 && stored) {
      await res.body?.cancel();
      const { status, headers, body } = revalidated(stored, res.headers);
      return { status, headers, body, cached: true };
    }
    if (res.status === 401 && token !== undefined && state.tokens && !renewed) {
      if (isInvalidToken(res.headers)) {
        // RFC 6750 §3.1: the token expired or was revoked; one new token, one more try.
        renewed = true;
        await res.body?.cancel();
        await state.tokens.renew(token);
        continue;
      }
    }
    if ((res.status === 429 || res.status === 503) && retryable && attempts < state.retries) {
      const { wait, asked } = retryWait(res.headers, now, attempts);
      if (wait > state.maxWait) throw await waitRefused(state, res, method, url, wait, asked);
      attempts++;
      await res.body?.cancel();
      // spec 8.2: no call of this client goes before the wait is over.
      if (res.status === 429) gate?.holdFor(wait);
      await sleep(wait, call.signal);
      continue;
    }

    const body = await readBody(state, res, method, url);
    if (!res.ok && res.status !== 304) {
      if (res.status === 412) forgetTag(state, url);
      throw new ApiResponseError(method, url, res.status, res.headers, body);
    }
    remember(state, method, url, cacheKey, res, body);
    return { status: res.status, headers: res.headers, body, cached: false };
  }
}

/**
 * A call's headers: the client's, its body's type, the call's own, and its token when it goes to
 * its own origin.
 */
async function headersOf(
  state: ClientState,
  call: Call,
  type: string | undefined,
  own: boolean,
): Promise<{ headers: Headers; token: string | undefined }> {
  const headers = new Headers(state.headers);
  if (type) headers.set('content-type', type);
  if (call.headers)
    for (const [name, value] of Object.entries(call.headers)) headers.set(name, value);
  let token: string | undefined;
  if (own && !headers.has('authorization')) {
    token = state.tokens ? await state.tokens.current() : await state.token?.();
    if (token !== undefined) headers.set('authorization', `Bearer ${token}`);
  }
  return { headers, token };
}

/**
 * How long to wait before retrying a 429 or 503: what `Retry-After` asks, else until a spent
 * rate limit resets, else an exponential back-off from half a second.
 */
function retryWait(
  headers: Headers,
  now: number,
  attempts: number,
): { wait: number; asked: number | undefined } {
  const limit = limitOf(headers, now);
  const asked = retryAfterOf(headers, now);
  const reset =
    limit?.remaining === 0 && limit.resetAt !== undefined
      ? Math.max(0, limit.resetAt - now)
      : undefined;
  return { wait: asked ?? reset ?? 500 * 2 ** attempts, asked };
}

/**
 * The refusal of a retry the service asked to wait for longer than `maxWait`, with the answer as
 * its cause.
 */
async function waitRefused(
  state: ClientState,
  res: Response,
  method: string,
  url: string,
  wait: number,
  asked: number | undefined,
): Promise<ClientRefusedError> {
  const cause = new ApiResponseError(
    method,
    url,
    res.status,
    res.headers,
    await readBody(state, res, method, url),
  );
  const by = asked !== undefined ? 'Retry-After' : 'the rate limit reset';
  return refusedWait(
    url,
    `${method} ${url}: the service answered ${res.status} and asked (${by}) to wait ${durationOf(wait)}, longer than retry.maxWait (${durationOf(state.maxWait)}); not retried.`,
    wait,
    cause,
  );
}

/** The refusal of a wait past `maxWait`. */
const refusedWait = (url: string, message: string, wait: number, cause?: unknown) =>
  new ClientRefusedError('wait', url, message, { wait, cause });

/** Calls `onDeprecation` the first time an endpoint says it is deprecated (spec 9.8). */
function notice(state: ClientState, call: Call, headers: Headers): void {
  const key = `${call.method} ${call.template}`;
  if (state.deprecated.has(key)) return;
  const found = deprecationOf(headers, call.method, call.template, call.url);
  if (found === undefined) return;
  state.deprecated.add(key);
  try {
    state.onDeprecation?.(found);
  } catch {
    // A failing listener must not fail the call it was told about.
  }
}
