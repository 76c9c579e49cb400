/** Where requests come from: trusted proxies, client addresses and schemes (RFC 7239). */
export { formatIp, type IpRange, inRange, type ParsedIp, parseIp, parseRange } from './ip.ts';
export { type ConnectionFacts, type RequestOrigin, resolveOrigin } from './resolve-origin.ts';
export { compileTrust, type TrustProxy, type TrustTest } from './trust-proxy.ts';
