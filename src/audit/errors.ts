/** The auditor's own failure: the service could not be reached at all. */

/**
 * The base URL (or a remote OpenAPI document) did not answer, so nothing could be audited: the
 * command's exit status 2.
 *
 * @category Audit
 */
export class AuditUnreachableError extends Error {
  /** Always `'AuditUnreachableError'`. */
  override readonly name = 'AuditUnreachableError';
}
