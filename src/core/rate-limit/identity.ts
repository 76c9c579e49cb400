/** Who a rate policy counts: the verified subject, else the client, else the client's network. */

import type { RequestContext } from '../kernel/context.ts';
import { parseIp } from '../origin/ip.ts';

/**
 * Names the caller a policy counts, or `undefined` when the policy does not apply to this
 * request (a per-username policy on a request without a username).
 *
 * @category Rate limits
 */
export type RateIdentity = (ctx: RequestContext) => string | undefined;

const hex = (byte: number) => byte.toString(16).padStart(2, '0');

/**
 * The network a client address counts as: an IPv4 address as itself (IPv4-mapped IPv6 folded
 * back to IPv4), an IPv6 address grouped to its first `ipv6Prefix` bits, since one subscriber
 * usually holds a whole /56 (RFC 6177) and could otherwise rotate through it. Anything that is
 * not an address is `unknown`, so it never escapes a limit.
 *
 * @example
 * ```ts
 * import { clientNetwork } from './identity.ts';
 *
 * clientNetwork('2001:db8:aa:bb01::7'); // '2001:0db8:00aa:bb00::/56'
 * clientNetwork('::ffff:192.0.2.1'); // '192.0.2.1'
 * ```
 *
 * @category Rate limits
 */
export function clientNetwork(address: string | undefined, ipv6Prefix = 56): string {
  if (address === undefined) return 'unknown';
  const ip = parseIp(address);
  if (ip === undefined) return 'unknown';
  if (ip.v4) return `${ip.bytes[12]}.${ip.bytes[13]}.${ip.bytes[14]}.${ip.bytes[15]}`;
  const masked = (i: number) => {
    const bits = ipv6Prefix - i * 8;
    return bits >= 8 ? ip.bytes[i]! : bits <= 0 ? 0 : ip.bytes[i]! & (0xff << (8 - bits));
  };
  const groups: string[] = [];
  for (let g = 0; g < Math.ceil(ipv6Prefix / 16); g++) {
    groups.push(hex(masked(2 * g)) + hex(masked(2 * g + 1)));
  }
  const text = groups.join(':');
  return ipv6Prefix >= 128 ? text : `${text}::/${ipv6Prefix}`;
}

/**
 * The default identity: `sub:` and the verified subject, else `client:` and the client id,
 * else `ip:` and the client's network ({@link clientNetwork}). The address is the one
 * `trustProxy` allows: forwarded headers count only from trusted proxies.
 *
 * @category Rate limits
 */
export function defaultIdentity(ipv6Prefix = 56): RateIdentity {
  // The last address seen and its network: a client's requests in a row cost one parse.
  let lastAddress: string | undefined;
  let lastNetwork = 'ip:unknown';
  return (ctx) => {
    const identity = ctx.identity;
    if (identity?.subject !== undefined) return `sub:${identity.subject}`;
    if (identity?.clientId !== undefined) return `client:${identity.clientId}`;
    const address = ctx.remoteAddress;
    if (address !== lastAddress || address === undefined) {
      lastNetwork = `ip:${clientNetwork(address, ipv6Prefix)}`;
      lastAddress = address;
    }
    return lastNetwork;
  };
}
