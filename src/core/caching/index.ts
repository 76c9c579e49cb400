/** Caching headers and conditional requests (spec 4.7, RFC 9110 §13, RFC 9111). */
export { type CacheDirectives, type CachePolicy, cacheControl } from './cache-control.ts';
export { type CachingOptions, caching } from './caching.ts';
export {
  bytesTag,
  formatKey,
  hashBody,
  type ParsedTag,
  parseTags,
  splitTag,
  versionOpaque,
  versionTag,
} from './etag.ts';
export {
  type CurrentResource,
  evaluatePreconditions,
  hasPrecondition,
  type Verdict,
} from './preconditions.ts';
export type { EtagMode, ResourceVersion, Validators, VersionReader } from './route-config.ts';
