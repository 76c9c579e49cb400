/** Request-path rules: lower-case paths, target splitting, safe parameter decoding (spec 4.1). */
export {
  assertLowerCasePath,
  decodeParam,
  hasUpperCase,
  type RequestTarget,
  splitTarget,
} from './check-path.ts';
