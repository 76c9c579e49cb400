/**
 * How strongly the spec words each rule the auditor checks, so that only what the spec demands
 * fails. A rule stated as what the interface does is required; "preferred", "should" or an
 * RFC's SHOULD is recommended; a pattern, an example, a header that "can be sent" is a pattern.
 * A check of a rule that asks less than its rule (a Cache-Control on every GET under spec 4.7's
 * list of caching headers) passes its own strength where it records the finding; docs/audit.md
 * gives every check's strength with the words that justify it.
 */

/**
 * How strongly the spec words a check's rule: `required` (stated as what the interface does),
 * `recommended` (preferred, recommended, or a SHOULD of the RFC it relies on) or `pattern` (a
 * pattern, an example or an option the spec offers). Only a required rule fails.
 *
 * @category Audit
 */
export type Strength = 'required' | 'recommended' | 'pattern';

/** The default strength of each rule; any rule not listed is required. */
const strengths: Readonly<Record<string, Strength>> = {
  // "A body pattern for error detail is an object with a list named errors…"
  '7.1.5': 'pattern',
  // "Other methods (query string, media type) are possible but the path is preferred."
  '9.1': 'recommended',
  // "Rate-limit information can be sent in these response headers."
  '8.3': 'pattern',
  // "Redirects for moved resources are avoided."
  '4.1.9': 'recommended',
};

/** The strength a finding of `rule` has unless its check says otherwise. */
export function strengthOf(rule: string): Strength {
  return strengths[rule] ?? 'required';
}
