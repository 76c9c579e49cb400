/**
 * The conventions as a Spectral ruleset, for teams that lint their OpenAPI documents with
 * Spectral: see [The conformance auditor](../../docs/audit.md#spectral).
 * `api-conventions/spectral`.
 *
 * @module api-conventions/spectral
 */

export {
  dateFormat,
  errorBody,
  listEnvelope,
  mediaType,
  oauthScheme,
  pagedList,
  pagingName,
  pathShape,
  type SpectralContext,
  type SpectralFunction,
  type SpectralResult,
} from './functions.ts';
export { conventions, type SpectralRule, type SpectralRuleset } from './ruleset.ts';
