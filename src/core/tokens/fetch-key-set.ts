/**
 * One fetch of an identity provider's JWK set (RFC 7517 §5), bounded in time and in bytes, with
 * the platform's `fetch` and streams only (the core runs on Node, Bun, Deno and workers).
 */
import { readAtMost } from '../internal/read-stream.ts';

/**
 * Why a provider's key set could not be had: an error status, the network, a body that is not
 * a JWK set or is larger than allowed. The provider's fault or the network's, never the
 * caller's: the token is answered 503 (`KeySetUnavailable`), not 401.
 */
export class KeySetUnavailableError extends Error {
  /** Read by the refusal mapping beside jose's own codes (see jws.ts). */
  readonly code = 'ERR_KEY_SET_UNAVAILABLE';
}

/** The bounds of one fetch. */
export interface FetchBounds {
  /** The longest wait for the whole answer, body included, in milliseconds. */
  timeoutMs: number;
  /** The most bytes of body read: declared (`Content-Length`) and as decoded (after gzip…). */
  maxBytes: number;
}

const headers = { accept: 'application/jwk-set+json, application/json' };
const utf8 = new TextDecoder('utf-8', { fatal: true });
const ignore = () => {};

const fail = (why: string) => new KeySetUnavailableError(why);

function messageOf(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown } } | null)?.cause;
  if (typeof cause?.code === 'string') return cause.code;
  return error instanceof Error ? error.message : String(error);
}

/**
 * The parsed JSON of the key set at `url`, or a thrown {@link KeySetUnavailableError}: not 200
 * (redirects are not followed, as jose's own fetch does not), no answer within `timeoutMs`, a
 * declared or decoded body over `maxBytes`, or a body that is not UTF-8 JSON. Whether the JSON
 * is a JWK set is jose's to say (`createLocalJWKSet`).
 */
export async function fetchKeySet(url: string, bounds: FetchBounds): Promise<unknown> {
  const { timeoutMs, maxBytes } = bounds;
  // One signal for the whole exchange: a body that trickles in is cut at the same deadline.
  const signal = AbortSignal.timeout(timeoutMs);
  const timedOut = () => fail(`no answer within ${timeoutMs} ms (jwksTimeoutMs)`);
  let response: Response;
  try {
    response = await fetch(url, { method: 'GET', redirect: 'manual', signal, headers });
  } catch (error) {
    throw signal.aborted ? timedOut() : fail(`the request failed: ${messageOf(error)}`);
  }
  const body = response.body;
  if (response.status !== 200) {
    body?.cancel().catch(ignore);
    throw fail(`the provider answered ${response.status}`);
  }
  if (body === null) throw fail('the answer has no body');
  const declared = response.headers.get('content-length');
  if (declared !== null && !(Number(declared) <= maxBytes)) {
    body.cancel().catch(ignore);
    throw fail(
      `the key set is larger than ${maxBytes} bytes (jwksMaxBytes): Content-Length ${declared}`,
    );
  }
  let read: Awaited<ReturnType<typeof readAtMost>>;
  try {
    // What is counted is what the stream yields, that is after any `Content-Encoding` was undone,
    // so a small gzip that inflates to gigabytes stops at the bound (a gzip bomb); cancelling
    // closes the connection: the rest is neither downloaded nor inflated.
    read = await readAtMost(body.getReader(), maxBytes);
  } catch (error) {
    throw signal.aborted ? timedOut() : fail(`the body could not be read: ${messageOf(error)}`);
  }
  if (read.over) throw fail(`the key set is larger than ${maxBytes} bytes (jwksMaxBytes)`);
  const { bytes } = read;
  try {
    return JSON.parse(utf8.decode(bytes));
  } catch {
    throw fail('the answer is not UTF-8 JSON');
  }
}
