/**
 * What a list or resource route does with a query parameter it does not read: refuse it, let it
 * through, or (the default) let it through unless it looks like a misspelling of one it reads.
 */

import { ErrorCode } from '../errors/catalogue.ts';
import type { FieldProblem } from '../errors/helpers.ts';

/**
 * The policy for query parameters a route does not read:
 * - `'typos'` (the default): ignored, unless the name looks like a misspelling of one the route
 *   reads (`per_pgae`, `sortt`, `perPage`): a 400 that names the parameter meant; and the
 *   library's own words (`q`, `sort`, `total`, `fields`, `view`) on a route that does not read
 *   them are a 400 too. Cache-busters
 *   (`_=1699999999`) and tracking parameters (`utm_source`) pass, so links and proxies that add
 *   them do not break clients, while a mistyped paging or filter parameter, which would
 *   silently give the wrong page, is still caught.
 * - `'reject'`: every parameter the route does not read is a 400 naming it.
 * - `'ignore'`: nothing is checked.
 *
 * @category Payloads
 */
export type UnknownParameterPolicy = 'typos' | 'reject' | 'ignore';

/** A route's parameters and policy, compiled once. */
export interface ParameterRules {
  readonly policy: UnknownParameterPolicy;
  /** The names the route reads. */
  readonly known: ReadonlySet<string>;
  /** Prefixes of names accepted as they are (`utm_` from `utm_*` in `parameters`). */
  readonly prefixes: readonly string[];
}

const policies: readonly string[] = ['typos', 'reject', 'ignore'];
// The library's own query words: a client that sends one expects its meaning, so a route that
// does not read it says so under every policy but 'ignore'.
const reserved: ReadonlySet<string> = new Set(['q', 'sort', 'total', 'fields', 'view']);
// Typos are looked for among the first names of a request only: the check costs at most
// 32 names × the route's names × a band of 5 cells per character.
const typoBudget = 32;

/** Checks a policy option; a wrong one is a `TypeError` naming the choices. */
export function checkPolicy(where: string, value: unknown): UnknownParameterPolicy {
  if (!policies.includes(value as string)) {
    throw new TypeError(`${where}: \`unknownParameters\` must be 'typos', 'reject' or 'ignore'.`);
  }
  return value as UnknownParameterPolicy;
}

/** Splits `parameters` into exact names and `prefix*` patterns. */
export function compileRules(
  policy: UnknownParameterPolicy,
  names: Iterable<string>,
): ParameterRules {
  const known = new Set<string>();
  const prefixes: string[] = [];
  for (const name of names) {
    if (name.endsWith('*') && name.length > 1) prefixes.push(name.slice(0, -1));
    else known.add(name);
  }
  return { policy, known, prefixes };
}

/** Whether `name` is read by the route or accepted by a pattern. */
function accepted(rules: ParameterRules, name: string): boolean {
  if (rules.known.has(name)) return true;
  for (const prefix of rules.prefixes) if (name.startsWith(prefix)) return true;
  return false;
}

/**
 * Whether `a` and `b` are at most `max` edits apart (insertions, deletions, substitutions and
 * swaps of neighbours). Cost: a band of 2 × max + 1 cells per character of `a`.
 */
function near(a: string, b: string, max: number): boolean {
  if (Math.abs(a.length - b.length) > max) return false;
  let prevPrev: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = new Array<number>(b.length + 1).fill(max + 1);
    row[0] = i;
    let best = row[0];
    const from = Math.max(1, i - max);
    const to = Math.min(b.length, i + max);
    for (let j = from; j <= to; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d = Math.min(d, prevPrev[j - 2]! + 1);
      }
      row[j] = d;
      if (d < best) best = d;
    }
    if (best > max) return false;
    prevPrev = prev;
    prev = row;
  }
  return prev[b.length]! <= max;
}

const plain = (name: string) => name.toLowerCase().replace(/[-_.]/g, '');

/**
 * The parameter `name` was probably meant to be, or `undefined`: the same name in another case
 * or with other separators (`perPage`, `per-page`), or one or two edits away (two for names of
 * six characters and more, one below: `sortt`, `per_pgae`, `pgae`).
 */
function meantParameter(name: string, known: ReadonlySet<string>): string | undefined {
  if (name.length > 64) return undefined;
  const folded = plain(name);
  for (const candidate of known) {
    if (plain(candidate) === folded) return candidate;
  }
  for (const candidate of known) {
    const max = Math.min(name.length, candidate.length) >= 6 ? 2 : 1;
    if (candidate.length >= 3 && near(name, candidate, max)) return candidate;
  }
  return undefined;
}

/**
 * The problems of a request's query under `rules`: none with `'ignore'`; each parameter not
 * read with `'reject'`; with `'typos'`, each one that looks like a misspelling (the first 32
 * unknown names are looked at). `what` names the route ("list", "resource") in the message.
 */
export function unknownParameterProblems(
  rules: ParameterRules,
  names: Iterable<string>,
  what: string,
): FieldProblem[] {
  const problems: FieldProblem[] = [];
  if (rules.policy === 'ignore') return problems;
  let budget = typoBudget;
  for (const name of names) {
    if (accepted(rules, name)) continue;
    const shown = name.length > 64 ? `${name.slice(0, 64)}…` : name;
    if (rules.policy === 'reject' || reserved.has(name)) {
      problems.push({
        message: `The query parameter "${shown}" is not one this ${what} reads; it reads ${[...rules.known].join(', ') || 'none'}.`,
        code: ErrorCode.UnknownParameter,
      });
      continue;
    }
    if (budget-- <= 0) break;
    const meant = meantParameter(name, rules.known);
    if (meant !== undefined) {
      problems.push({
        message: `The query parameter "${shown}" is not one this ${what} reads; did you mean "${meant}"?`,
        code: ErrorCode.UnknownParameter,
      });
    }
  }
  return problems;
}
