/** Cross-route rule: a collection names its item parameter alike on every route (spec 4.1.7). */
import { finding, type LintFinding } from './lint-finding.ts';
import { type Item, type ParsedPattern, printPattern } from './parse-pattern.ts';

/**
 * The first parameter name seen after each collection, keyed by the path up to the collection
 * with parameter names blanked out (`/v1/authors/:/books`), so nested collections stay apart.
 *
 * @category Lint
 */
export type ParamNames = Map<string, string>;

/**
 * Reports item parameters named differently from the first route that used the collection.
 *
 * @category Lint
 */
export function checkParamNames(parsed: ParsedPattern, names: ParamNames): LintFinding | undefined {
  const fixed: Item[] = [...parsed.items];
  const renames: string[] = [];
  const used = new Set(
    parsed.items.flatMap((item) =>
      item.type === 'param' || item.type === 'wildcard' ? [item.name] : [],
    ),
  );
  let clash = false;
  let prefix = '';
  parsed.segments.forEach((segment, i) => {
    const label = segment.parts
      .map(({ item }) => (item.type === 'text' ? item.value : item.type === 'param' ? ':' : '*'))
      .join('');
    prefix += `/${label}`;
    const next = parsed.segments[i + 1]?.parts[0];
    if (segment.text === undefined || segment.text === '' || next?.item.type !== 'param') return;
    const first = names.get(prefix);
    if (first === undefined) {
      names.set(prefix, next.item.name);
    } else if (first !== next.item.name) {
      renames.push(`\`${segment.text}/:${next.item.name}\` → \`:${first}\``);
      clash ||= used.has(first);
      fixed[next.at] = { type: 'param', name: first };
    }
  });
  if (renames.length === 0) return undefined;
  const message =
    'an earlier route names the item parameter of the same collection differently; ' +
    `use one name on every route: ${renames.join(', ')}`;
  return finding(
    'uniform-structure',
    parsed.pattern,
    message,
    clash ? undefined : printPattern(fixed),
  );
}
