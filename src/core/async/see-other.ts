/** The outcome of a job that is a resource of its own: its status answers 303 (RFC 9110 §15.4.4). */

const seeOtherBrand = Symbol.for('api-conventions.SeeOther');

/**
 * What a job's work resolves to when its outcome is a resource of its own: the status resource
 * then answers `303 See Other` with `Location` (RFC 9110 §15.4.4).
 *
 * @category Asynchronous work
 */
export interface SeeOther {
  /** Marks it. */
  readonly [seeOtherBrand]: true;
  /** The outcome's URI. */
  readonly location: string;
}

/**
 * Ends a job's work with the URI of its outcome: its status resource answers 303 to it.
 *
 * @example
 * ```ts
 * import { conventions, createJobs, seeOther } from 'api-conventions';
 *
 * const reports = createJobs({ path: '/v1/report-runs' });
 * const api = conventions({
 *   routes: {
 *     // The work ends with the report's URI: GET /v1/report-runs/:id answers 303 to it.
 *     '/v1/report-runs': { POST: () => reports.start(async () => seeOther('/v1/reports/42')) },
 *   },
 *   plugins: [reports],
 * });
 * ```
 *
 * @category Asynchronous work
 */
export function seeOther(location: string): SeeOther {
  return { [seeOtherBrand]: true, location };
}

/** Whether a job's work resolved to {@link seeOther}'s value. */
export const isSeeOther = (value: unknown): value is SeeOther =>
  typeof value === 'object' && value !== null && (value as SeeOther)[seeOtherBrand] === true;
