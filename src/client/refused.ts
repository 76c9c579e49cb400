/**
 * What a call rejects with when the client itself refuses what a service asked of it: to send
 * credentials to another origin, to wait longer than it accepts, to read a body past its cap, to
 * trust another issuer's metadata, or to complete a sign-in it did not begin.
 */

/**
 * Why the client refused:
 * - `origin`: a link, redirect or endpoint on an origin the client does not send to;
 * - `downgrade`: from `https` to `http`;
 * - `issuer`: RFC 8414 metadata (or an authorization answer's `iss`) of another issuer;
 * - `wait`: a wait longer than `retry.maxWait`;
 * - `size`: a body longer than `maxBodySize`;
 * - `redirects`: more than 10 redirects, or one a browser hides;
 * - `sign-in`: no user signed in, or an authorization answer that is an error or belongs to no
 *   sign-in this client began.
 *
 * @category Client
 */
export type RefusalReason =
  | 'origin'
  | 'downgrade'
  | 'issuer'
  | 'wait'
  | 'size'
  | 'redirects'
  | 'sign-in';

const brand = Symbol.for('api-conventions.ClientRefusedError');

/**
 * The client refused to go on, for the `reason` it names; nothing was sent where it refused to
 * send. A refused wait names the wait (`wait`, in ms); a refusal caused by a response (a 429 whose
 * `Retry-After` is too long) has that response's `ApiResponseError` as its `cause`.
 *
 * @example
 * ```ts
 * import { ClientRefusedError, createClient } from 'api-conventions/client';
 *
 * const client = createClient({ baseUrl: 'https://books.example.com' });
 * try {
 *   for await (const book of client.paginate('/v1/books')) console.log(book);
 * } catch (error) {
 *   // A `Link` to another origin: nothing was sent there.
 *   if (error instanceof ClientRefusedError && error.reason === 'origin') console.log(error.url);
 * }
 * ```
 *
 * @category Client
 */
export class ClientRefusedError extends Error {
  /** Why. */
  readonly reason: RefusalReason;
  /** The URL the client refused to call, or the one whose answer it refused. */
  readonly url: string;
  /** The wait refused, in ms (`reason: 'wait'`). */
  readonly wait: number | undefined;

  /** Makes the error; `message` says what was refused and how to allow it where one can. */
  constructor(
    reason: RefusalReason,
    url: string,
    message: string,
    options: { wait?: number; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ClientRefusedError';
    this.reason = reason;
    this.url = url;
    this.wait = options.wait;
    Object.defineProperty(this, brand, { value: true });
  }
}

/**
 * Whether `value` is a {@link ClientRefusedError}, also one made by another copy of the client.
 *
 * @example
 * ```ts
 * import { createClient, isClientRefusedError } from 'api-conventions/client';
 *
 * const client = createClient({ baseUrl: 'https://books.example.com', retry: { maxWait: 5_000 } });
 * try {
 *   await client.get('/v1/books');
 * } catch (error) {
 *   if (!isClientRefusedError(error) || error.reason !== 'wait') throw error;
 *   console.log(`the service asked for a wait of ${error.wait} ms`);
 * }
 * ```
 *
 * @category Client
 */
export function isClientRefusedError(value: unknown): value is ClientRefusedError {
  return typeof value === 'object' && value !== null && brand in value;
}

/** A wait in words: `1.5 s`, `27 h`. */
export function durationOf(ms: number): string {
  if (!Number.isFinite(ms)) return 'forever';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 120_000) return `${Math.round(ms / 100) / 10} s`;
  if (ms < 7_200_000) return `${Math.round(ms / 60_000)} min`;
  if (ms < 172_800_000) return `${Math.round(ms / 3_600_000)} h`;
  return `${Math.round(ms / 86_400_000)} days`;
}
