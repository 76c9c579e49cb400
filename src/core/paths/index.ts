/** Request-path rules: lower-case paths, target splitting, safe parameter decoding (spec 4.1). */
export { assertLowerCasePath, decodeParam, hasUpperCase, splitTarget } from './check-path.ts';
