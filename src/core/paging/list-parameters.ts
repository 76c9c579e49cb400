/** The parameters of a list request and the paging style they choose: each refusal a 400. */
import { ErrorCode } from '../errors/catalogue.ts';
import { type FieldProblem, invalidRequest } from '../errors/helpers.ts';
import { type ListSpec, type PagingStyle, pagingParameters } from './list-options.ts';
import { unknownParameterProblems } from './unknown-parameters.ts';

/**
 * The names of a list query's parameters, once none is repeated, unknown or of a paging style
 * the list does not read; every such problem is listed in one 400.
 */
export function checkParameters(spec: ListSpec, query: URLSearchParams): ReadonlySet<string> {
  const problems: FieldProblem[] = [];
  const seen = new Set<string>();
  const unknown: string[] = [];
  // Cost: one set look-up per parameter; at most 100 problems are listed (maxErrorEntries).
  for (const name of query.keys()) {
    if (seen.has(name)) {
      if (spec.known.has(name)) {
        problems.push({
          message: `The query parameter "${name}" is given more than once; give it once.`,
          code: ErrorCode.PagingConflict,
        });
      }
      continue;
    }
    seen.add(name);
    if (!spec.known.has(name) && pagingParameters.includes(name)) {
      problems.push({
        message: `The query parameter "${name}" is not read here: this list pages by ${spec.styles.join(', ')} (${[...spec.known].filter((p) => pagingParameters.includes(p)).join(', ')}).`,
        code: ErrorCode.UnknownParameter,
      });
    } else if (!spec.known.has(name)) {
      unknown.push(name);
    }
  }
  problems.push(...unknownParameterProblems(spec.parameterRules, unknown, 'list'));
  if (problems.length > 0) throw invalidRequest(problems);
  return seen;
}

/** Which style each paging parameter belongs to; the size parameters are shared with cursors. */
function styleOf(params: ReadonlySet<string>): {
  styles: PagingStyle[];
  conflict: string | undefined;
} {
  const has = (n: string) => params.has(n);
  const found: PagingStyle[] = [];
  if (has('page')) found.push('page');
  if (has('offset')) found.push('offset');
  if (has('after') || has('before')) found.push('cursor');
  if (has('after') && has('before')) return { styles: found, conflict: '"after" and "before"' };
  if (has('per_page') && has('limit')) return { styles: found, conflict: '"per_page" and "limit"' };
  if (found.length > 1) {
    const by: Record<PagingStyle, string> = {
      page: '"page"',
      offset: '"offset"',
      cursor: has('after') ? '"after"' : '"before"',
    };
    return { styles: found, conflict: found.map((s) => by[s]).join(' and ') };
  }
  if (found.length === 0) {
    if (has('per_page')) found.push('page');
    else if (has('limit')) found.push('offset');
  }
  if (found[0] === 'page' && has('limit')) return { styles: found, conflict: '"page" and "limit"' };
  if (found[0] === 'offset' && has('per_page'))
    return { styles: found, conflict: '"offset" and "per_page"' };
  return { styles: found, conflict: undefined };
}

/**
 * The paging style of a request: the one its parameters name (two styles at once are a 400), a
 * cursor for a size alone where the list reads no other, else the list's first.
 */
export function chooseStyle(spec: ListSpec, seen: ReadonlySet<string>): PagingStyle {
  const { styles, conflict } = styleOf(seen);
  if (conflict !== undefined) {
    throw invalidRequest([
      {
        message: `The query parameters ${conflict} belong to different paging styles; use one style per request.`,
        code: ErrorCode.PagingConflict,
      },
    ]);
  }
  let style = styles[0] ?? spec.styles[0]!;
  const positioned =
    seen.has('page') || seen.has('offset') || seen.has('after') || seen.has('before');
  // A size alone (`limit=5`) pages from the start in a style that reads that size.
  if (!positioned && !spec.styles.includes(style) && spec.styles.includes('cursor'))
    style = 'cursor';
  if (!spec.styles.includes(style)) {
    throw invalidRequest([
      {
        message: `This list does not page by ${style === 'page' ? '"page"' : style === 'offset' ? '"offset"' : '"after" and "before"'}; it pages by ${spec.styles.join(', ')}.`,
        code: ErrorCode.InvalidParameter,
      },
    ]);
  }
  return style;
}
