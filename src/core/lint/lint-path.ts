/** Lints one route pattern against the path rules (spec 4.1, 9.1). */
import { checkParamNames, type ParamNames } from './check-param-names.ts';
import {
  checkPlural,
  checkRequired,
  checkStructure,
  checkTrailingSlash,
  checkVersion,
} from './check-structure.ts';
import { checkText } from './check-text.ts';
import { finding, type LintFinding } from './lint-finding.ts';
import {
  isAllowed,
  type LintOptions,
  type ResolvedLintOptions,
  resolveLintOptions,
} from './lint-options.ts';
import { parsePattern } from './parse-pattern.ts';

/**
 * What {@link lintRoutes} knows about a pattern beyond its text.
 *
 * @category Lint
 */
interface PatternContext {
  /** A POST route ends at this pattern, so its last segment is a collection. */
  postTarget: boolean;
  /** Item parameter names seen on earlier routes, for the cross-route rule. */
  names?: ParamNames;
}

/**
 * Lints one pattern with resolved options; findings come in the order of the `LintRule` union.
 *
 * @category Lint
 */
export function lintPattern(
  pattern: string,
  options: ResolvedLintOptions,
  context: PatternContext = { postTarget: false },
): LintFinding[] {
  if (isAllowed(pattern, options.allow)) return [];
  const parsed = parsePattern(pattern);
  if ('error' in parsed) {
    const repaired = `/${pattern}`;
    const fix =
      !pattern.startsWith('/') && !('error' in parsePattern(repaired)) ? repaired : undefined;
    return [finding('invalid-pattern', pattern, parsed.error, fix)];
  }
  return [
    checkText(parsed, 'lower-case'),
    checkTrailingSlash(parsed),
    checkPlural(parsed, options.pluralExceptions, context.postTarget),
    checkText(parsed, 'hyphen-words'),
    checkText(parsed, 'no-extension'),
    checkText(parsed, 'no-encoding'),
    options.requireVersion ? checkVersion(parsed) : undefined,
    checkRequired(parsed),
    ...checkStructure(parsed),
    context.names ? checkParamNames(parsed, context.names) : undefined,
  ].filter((found) => found !== undefined);
}

/**
 * Lints one path-to-regexp v8 pattern against the path rules of spec 4.1 and the version
 * prefix of spec 9.1; an empty list means the pattern follows them all.
 *
 * @example
 * ```ts
 * import { lintPath } from 'api-conventions/lint';
 *
 * lintPath('/v1/userProfiles');
 * // [{ rule: 'lower-case', section: '4.1.3', path: '/v1/userProfiles',
 * //    message: 'upper-case letters in `userProfiles`; …', fix: '/v1/user-profiles' }]
 * ```
 *
 * @category Lint
 */
export function lintPath(pattern: string, options?: LintOptions): LintFinding[] {
  const resolved = resolveLintOptions('lintPath', options);
  if (typeof pattern !== 'string') {
    throw new TypeError(
      `lintPath: the pattern must be a string such as '/v1/books/:id'; got ${typeof pattern}.`,
    );
  }
  return lintPattern(pattern, resolved);
}
