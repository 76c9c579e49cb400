/** Where a request came from: scheme, host and client address, through trusted proxies only. */
import type { HeaderReader } from '../http/response.ts';
import { formatIp, parseIp } from './ip.ts';
import type { TrustTest } from './trust-proxy.ts';

/**
 * Where one request came from, as the service's clients see it.
 *
 * @category Request origin
 */
export interface RequestOrigin {
  /** `https` or `http`, as the client used it. */
  scheme: 'http' | 'https';
  /** Whether the client used HTTPS. */
  secure: boolean;
  /** The host (and port) the client asked for; `undefined` when the request named none. */
  host: string | undefined;
  /** The client's address, IPv4-mapped IPv6 folded to IPv4; `undefined` when unknown. */
  remoteAddress: string | undefined;
}

/**
 * What the connection itself tells, before any proxy header is read.
 *
 * @category Request origin
 */
export interface ConnectionFacts {
  /** The scheme of the connection. */
  scheme: 'http' | 'https';
  /** The peer address of the connection. */
  peerAddress: string | undefined;
  /** The request headers. */
  headers: HeaderReader;
}

interface Hop {
  address: string;
  proto: string | undefined;
  host: string | undefined;
}

function list(value: string | null | undefined): string[] {
  if (!value) return [];
  return value.split(',').map((part) => part.trim());
}

function unquote(value: string): string {
  return value.length > 1 && value[0] === '"' && value.at(-1) === '"'
    ? value.slice(1, -1).replace(/\\(.)/g, '$1')
    : value;
}

/** RFC 7239 §6: `for` is a node: an IPv4 address or a bracketed IPv6 one, maybe with a port. */
function nodeAddress(node: string): string {
  if (node.startsWith('[')) return node.slice(1, node.indexOf(']'));
  const colon = node.indexOf(':');
  return colon !== -1 && node.indexOf(':', colon + 1) === -1 ? node.slice(0, colon) : node;
}

/** The hops a `Forwarded` header lists, nearest to the client first (RFC 7239 §4). */
// Cost: linear in the value (one split by `,`, one by `;` per element); read only from a trusted peer.
function forwardedHops(header: string): Hop[] {
  // Commas and semicolons inside quoted strings are rare here; a value that splits wrongly only
  // names an address no proxy range matches, so it is never trusted.
  return header.split(',').map((element) => {
    const hop: Hop = { address: '', proto: undefined, host: undefined };
    for (const pair of element.split(';')) {
      const eq = pair.indexOf('=');
      if (eq === -1) continue;
      const name = pair.slice(0, eq).trim().toLowerCase();
      const value = unquote(pair.slice(eq + 1).trim());
      if (name === 'for') hop.address = nodeAddress(value);
      else if (name === 'proto') hop.proto = value.toLowerCase();
      else if (name === 'host') hop.host = value;
    }
    return hop;
  });
}

/** The hops `X-Forwarded-*` list; a proto or host lines up with its address from the right. */
// Cost: linear in the three values (one split each); read only from a trusted peer.
function xForwardedHops(headers: HeaderReader): Hop[] {
  const addresses = list(headers.get('x-forwarded-for'));
  const protos = list(headers.get('x-forwarded-proto'));
  const hosts = list(headers.get('x-forwarded-host'));
  const n = addresses.length;
  // A proxy that overwrites rather than appends leaves one value: it speaks for the client's hop.
  const at = (values: string[], i: number) =>
    values.length === 0 ? undefined : values[Math.max(0, values.length - (n - i))];
  return addresses.map((address, i) => ({
    address,
    proto: at(protos, i)?.toLowerCase(),
    host: at(hosts, i),
  }));
}

// A dotted quad without leading zeros, each part at most 255: already in canonical form.
const canonicalV4 =
  /^(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?:\.(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

function canonical(address: string | undefined): string | undefined {
  if (address === undefined) return undefined;
  // Most peers are plain IPv4 addresses: nothing to parse or format.
  if (canonicalV4.test(address)) return address;
  const ip = parseIp(address);
  return ip === undefined ? address : formatIp(ip);
}

/**
 * Resolves where a request came from. Proxy headers are read only when the connection's peer is a
 * trusted proxy; then each hop is walked from the nearest, and the first address that is not a
 * trusted proxy is the client. `Forwarded` wins over `X-Forwarded-*` when both are present.
 *
 * @category Request origin
 */
export function resolveOrigin(facts: ConnectionFacts, trust: TrustTest): RequestOrigin {
  const peer = canonical(facts.peerAddress);
  let scheme = facts.scheme;
  let host = facts.headers.get('host') ?? undefined;
  let client = peer;
  if (peer !== undefined && trust(peer, 0)) {
    const forwarded = facts.headers.get('forwarded');
    const hops = forwarded ? forwardedHops(forwarded) : xForwardedHops(facts.headers);
    let hop = 0;
    let chosen: Hop | undefined;
    // Cost: one address parsed and tested per hop walked, from the nearest; the walk stops at
    // the first hop that is not a trusted proxy.
    for (let i = hops.length - 1; i >= 0; i--) {
      chosen = hops[i]!;
      hop++;
      if (!trust(canonical(chosen.address) ?? chosen.address, hop)) break;
    }
    if (chosen !== undefined) {
      client = canonical(chosen.address) || client;
      if (chosen.proto === 'https' || chosen.proto === 'http') scheme = chosen.proto;
      if (chosen.host) host = chosen.host;
    }
  }
  return { scheme, secure: scheme === 'https', host: host || undefined, remoteAddress: client };
}
