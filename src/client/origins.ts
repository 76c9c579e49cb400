/**
 * Where the client may send what (RFC 6454 origins): everything to its base URL's origin, a bare
 * request (no token, no `headers` option, no call headers) to the origins the caller listed in
 * `followOrigins`, nothing anywhere else, and never from `https` down to `http`.
 */
import { ClientRefusedError } from './refused.ts';

/** What the client may send to a URL: its credentials (`own`) or a bare request (`bare`). */
export type Reach = 'own' | 'bare';

/** The origins a client knows. */
export interface OriginPolicy {
  /** The base URL's origin. */
  readonly own: string;
  /** Origins the caller allowed bare requests to (`followOrigins`). */
  readonly follow: ReadonlySet<string>;
}

/** The origin of an absolute http(s) URL, or `undefined` for anything else (`data:`, `file:`). */
export function httpOrigin(url: URL): string | undefined {
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
}

/**
 * What may go to `target`, which `what` (a `Link`, a redirect) names in the answer to `from`;
 * throws a {@link ClientRefusedError} where nothing may go.
 */
export function reachOf(policy: OriginPolicy, target: string, from: string, what: string): Reach {
  const url = new URL(target);
  const origin = httpOrigin(url);
  if (origin === policy.own) return 'own';
  if (origin !== undefined && policy.follow.has(origin)) return 'bare';
  if (policy.own.startsWith('https:') && url.protocol === 'http:') {
    throw new ClientRefusedError(
      'downgrade',
      target,
      `${from}: ${what} leads from https down to http (${target}); the client does not follow it.`,
    );
  }
  throw new ClientRefusedError(
    'origin',
    target,
    `${from}: ${what} leads to another origin (${target}); the client sends nothing there. ` +
      `List ${origin ?? 'its origin'} in followOrigins to follow it without credentials.`,
  );
}

/**
 * A list of origins as an option gives them, each checked: an absolute http(s) URL with nothing
 * after its origin. A mistake is a `TypeError` naming the option.
 */
export function originList(where: string, value: unknown): Set<string> {
  if (value === undefined) return new Set();
  if (!Array.isArray(value)) {
    throw new TypeError(`${where} is a list of origins such as ["https://cdn.example.com"].`);
  }
  const out = new Set<string>();
  for (const item of value) {
    let url: URL | undefined;
    try {
      url = typeof item === 'string' ? new URL(item) : undefined;
    } catch {
      url = undefined;
    }
    const origin = url && httpOrigin(url);
    if (origin === undefined || origin !== String(item).replace(/\/$/, '')) {
      throw new TypeError(
        `${where}: "${String(item)}" is not an origin; give the scheme, host and port only, such as "https://cdn.example.com".`,
      );
    }
    out.add(origin);
  }
  return out;
}
