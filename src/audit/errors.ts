/** The auditor's own failure: the service could not be reached at all. */

/**
 * The base URL (or a remote OpenAPI document) did not answer, so nothing could be audited: the
 * command's exit status 2.
 *
 * @example
 * ```ts
 * import { AuditUnreachableError, audit } from 'api-conventions/audit';
 *
 * try {
 *   await audit({ baseUrl: 'http://127.0.0.1:9' });
 * } catch (error) {
 *   if (!(error instanceof AuditUnreachableError)) throw error;
 *   console.error(error.message); // nothing answered: the command's exit status 2
 * }
 * ```
 *
 * @category Audit
 */
export class AuditUnreachableError extends Error {
  /** Always `'AuditUnreachableError'`. */
  override readonly name = 'AuditUnreachableError';
}
