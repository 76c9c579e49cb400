/**
 * Request-path rules: lower-case paths, target splitting and normalization, safe parameter
 * decoding, bounded echoes of paths in messages (spec 4.1).
 */
export {
  assertLowerCasePath,
  decodeParam,
  hasUpperCase,
  type RequestTarget,
  splitTarget,
} from './check-path.ts';
export { boundedEcho, echoLimit } from './echo.ts';
export { normalizedUrl, normalizeTarget } from './normalize-target.ts';
