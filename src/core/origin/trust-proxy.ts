/** Which proxies are trusted to say where a request came from, compiled once from an option. */
import { type IpRange, inRange, parseIp, parseRange } from './ip.ts';

/**
 * Which proxies in front of the service are trusted, so that `X-Forwarded-For/Proto/Host` and
 * `Forwarded` (RFC 7239) are honoured from them and from no one else:
 * - `false`: none; the connection's own address, scheme and `Host` are used (the default);
 * - `true`: every hop (only when the service is never reachable but through a proxy);
 * - a number: that many hops in front of the service;
 * - addresses or ranges (`'10.0.0.0/8'`, `'fd00::/8'`), or the names `'loopback'`,
 *   `'linklocal'` and `'uniquelocal'`, as one comma-separated string or a list;
 * - a function of the address and its hop (0 is the peer of the connection).
 *
 * @category Request origin
 */
export type TrustProxy =
  | boolean
  | number
  | string
  | readonly string[]
  | ((address: string, hop: number) => boolean);

/**
 * A compiled {@link TrustProxy}: whether the hop at `hop` with `address` is a trusted proxy.
 *
 * @category Request origin
 */
export type TrustTest = (address: string, hop: number) => boolean;

const named: Readonly<Record<string, readonly string[]>> = {
  loopback: ['127.0.0.0/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

/** @internal No proxy is trusted (the default): the connection alone says where a request came from. */
export const trustNone: TrustTest = () => false;

/**
 * Compiles the `trustProxy` option once; a malformed value is a `TypeError` that says how to fix it.
 *
 * @category Request origin
 */
export function compileTrust(option: TrustProxy | undefined): TrustTest {
  if (option === undefined || option === false) return trustNone;
  if (option === true) return () => true;
  if (typeof option === 'function') return option;
  if (typeof option === 'number') {
    if (!Number.isInteger(option) || option < 0) {
      throw new TypeError(
        `trustProxy as a number counts hops: a whole number from 0; got ${option}.`,
      );
    }
    return (_address, hop) => hop < option;
  }
  const items = typeof option === 'string' ? option.split(',') : option;
  if (!Array.isArray(items) || items.some((item) => typeof item !== 'string')) {
    throw new TypeError(
      'trustProxy must be true, false, a number of hops, addresses or ranges, or a function.',
    );
  }
  const ranges: IpRange[] = items
    .map((item) => item.trim())
    .flatMap((item) => named[item] ?? [item])
    .map(parseRange);
  return (address) => {
    const ip = parseIp(address);
    return ip !== undefined && ranges.some((range) => inRange(ip, range));
  };
}
