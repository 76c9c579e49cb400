/** Path shape (spec 4.1.2-4.1.6) and the version segment (9.1), decided on the path's text. */
import { lintPath } from 'api-conventions/lint';
import type { Findings, Place } from '../report.ts';
import { resourceNameProblem } from './resource-names.ts';

/**
 * Names of protocols and schemes that group the operations under them (`/auth/oauth/{provider}`):
 * the segment before a parameter, but no collection to put in the plural.
 */
const pluralExceptions = ['auth', 'oauth', 'oauth2', 'openid', 'oidc', 'saml', 'sso', 'ldap'];

/** The lint rules the auditor reports, by spec rule, with what a pass means. */
const rules: readonly [section: string, pass: string][] = [
  ['4.1.3', 'the path is lower-case'],
  ['4.1.6', 'words are joined with hyphens'],
  ['4.1.4', 'collections are plural nouns'],
  ['4.1.2', 'no implementation file extension'],
  ['4.1.5', 'no characters that need encoding'],
  ['9.1', 'a version segment such as /v1 comes first'],
];

/**
 * What is wrong with `path` (a concrete path or an OpenAPI template with `{name}` parameters),
 * by spec rule: `4.1.3` → `upper-case letters in …`.
 */
export function pathShapeProblems(path: string): Map<string, string> {
  // OpenAPI templates name parameters in braces; the lint reads `:name`. In a concrete path a
  // number or a UUID is an identifier, so the segment before it names a collection (heuristic).
  const pattern = path
    .split('?')[0]!
    .replace(/\{([^}]+)\}/g, (_, name: string) => `:${name.replace(/\W/g, '')}`)
    .replace(
      /\/(?:\d+|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?=\/|$)/gi,
      '/:id',
    );
  const lint = lintPath(pattern, { pluralExceptions });
  const problems = new Map<string, string>();
  const named = resourceNameProblem(pattern);
  for (const found of lint) {
    if (!problems.has(found.section)) {
      problems.set(found.section, `${found.message}${found.fix ? ` (e.g. ${found.fix})` : ''}`);
    }
  }
  if (named !== undefined && !problems.has('4.1.4')) problems.set('4.1.4', named);
  return problems;
}

/**
 * Reports each path rule for `path` (a concrete path or an OpenAPI template with `{name}`
 * parameters), under `request`. The rules are about the path's spelling, whatever the method.
 */
export function checkPathShape(
  findings: Findings,
  path: string,
  request: string,
  at?: string,
): void {
  const place: Place = { method: null, ...(at !== undefined ? { path: at } : {}) };
  const problems = pathShapeProblems(path);
  for (const [section, pass] of rules) {
    const problem = problems.get(section);
    if (problem) {
      findings.fail(section, request, problem, undefined, undefined, undefined, place);
    } else {
      findings.pass(section, request, pass, undefined, place);
    }
  }
}
