/** Rules on the shape of a pattern: collections, version, optional parts (spec 4.1.4–4.1.8, 9.1). */
import { finding, type LintFinding } from './lint-finding.ts';
import {
  type Item,
  type ParsedPattern,
  printPattern,
  printWithoutGroups,
  type Segment,
  versionOf,
} from './parse-pattern.ts';
import { isPlural, pluralize } from './pluralize.ts';

/**
 * Writes a segment as it reads in a pattern, e.g. `:id` or `books`.
 */
function segmentLabel(segment: Segment): string {
  return segment.parts
    .map(({ item }) =>
      item.type === 'text' ? item.value : `${item.type === 'param' ? ':' : '*'}${item.name}`,
    )
    .join('');
}

const hasKey = (segment: Segment | undefined): boolean =>
  segment?.parts.some(({ item }) => item.type !== 'text') ?? false;

/**
 * The indexes of segments that name a collection: a static segment directly followed by a
 * parameter, or the last segment of a POST route (spec 4.2: POST on a collection creates an item).
 */
function collectionIndexes(parsed: ParsedPattern, postTarget: boolean): number[] {
  const { segments } = parsed;
  let last = segments.length - 1;
  while (last > 0 && segments[last]!.parts.length === 0) last--;
  const first = versionOf(parsed) === undefined ? 0 : 1;
  const indexes: number[] = [];
  for (let i = first; i < segments.length; i++) {
    const text = segments[i]!.text;
    if (text === undefined || text === '') continue;
    const nextPart = segments[i + 1]?.parts[0]?.item;
    if (nextPart?.type === 'param' || nextPart?.type === 'wildcard' || (postTarget && i === last)) {
      indexes.push(i);
    }
  }
  return indexes;
}

/**
 * Reports collection names that are not plural nouns (spec 4.1.4).
 *
 * @category Lint
 */
export function checkPlural(
  parsed: ParsedPattern,
  exceptions: ReadonlySet<string>,
  postTarget: boolean,
): LintFinding | undefined {
  const fixed: Item[] = [...parsed.items];
  const offenders: string[] = [];
  for (const i of collectionIndexes(parsed, postTarget)) {
    const segment = parsed.segments[i]!;
    if (isPlural(segment.text!, exceptions)) continue;
    const last = segment.parts[segment.parts.length - 1]!;
    if (last.item.type !== 'text') continue;
    fixed[last.at] = { type: 'text', value: pluralize(last.item.value) };
    offenders.push(`\`${segment.text}\``);
  }
  if (offenders.length === 0) return undefined;
  const message =
    `${offenders.join(', ')} names a collection, so it is a plural noun ` +
    '(list the word in `pluralExceptions` if it already is one)';
  return finding('plural-collection', parsed.pattern, message, printPattern(fixed));
}

/**
 * Reports a path whose first segment is not a major version such as `v1` (spec 9.1, 9.4).
 *
 * @category Lint
 */
export function checkVersion(parsed: ParsedPattern): LintFinding | undefined {
  const version = versionOf(parsed);
  if (version !== undefined) {
    if (/^v\d+$/i.test(version)) return undefined;
    const fixed: Item[] = [...parsed.items];
    const only = parsed.segments[0]!.parts;
    const major = version.split('.')[0]!;
    if (only.length === 1) fixed[only[0]!.at] = { type: 'text', value: major };
    const message =
      `\`${version}\` carries more than the major version; ` +
      'only the major version goes in the path';
    const fix = only.length === 1 ? printPattern(fixed) : undefined;
    return finding('version-prefix', parsed.pattern, message, fix, '9.4');
  }
  const elsewhere = parsed.segments.find((s) => s.text !== undefined && /^v\d+$/i.test(s.text));
  if (elsewhere !== undefined) {
    // A base path such as /api may come before the version; lint paths relative to it.
    const message =
      `the version \`${elsewhere.text}\` is not the first segment; ` +
      'lint paths relative to the base URL';
    return finding('version-prefix', parsed.pattern, message);
  }
  const first = parsed.segments[0]?.text;
  if (first !== undefined && /^api$/i.test(first) && parsed.pattern.length > first.length + 1) {
    // `/api/books`: `/api` is a base path, not part of the resource's path; the version comes
    // first after it (`/api/v1/books` from outside), so the route is `/v1/books` under /api.
    const message =
      'the path does not start with a version such as `/v1`; `/api` reads as a base path: ' +
      'declare routes relative to it, the version first, and serve them under /api';
    return finding(
      'version-prefix',
      parsed.pattern,
      message,
      `/v1${parsed.pattern.slice(first.length + 1)}`,
    );
  }
  const message = 'the path does not start with a version such as `/v1`';
  const fix = parsed.pattern === '/' ? '/v1' : `/v1${parsed.pattern}`;
  return finding('version-prefix', parsed.pattern, message, fix);
}

/**
 * Reports a pattern that ends in `/`: the router never redirects and treats `/v1/books/` and
 * `/v1/books` as different paths, so the slash-less path every client uses would get 404.
 *
 * @category Lint
 */
export function checkTrailingSlash(parsed: ParsedPattern): LintFinding | undefined {
  const { items } = parsed;
  let end = items.length;
  while (end > 0 && items[end - 1]!.type === 'slash') end--;
  // The root `/` is the one path whose only character is its slash.
  if (end === items.length || items.length === 1) return undefined;
  const message =
    'the pattern ends in `/`, so only requests with the trailing slash reach it, and the ' +
    'path without it gets 404 (there is no redirect); declare it without the slash';
  return finding('trailing-slash', parsed.pattern, message, printPattern(items.slice(0, end)));
}

/**
 * Reports optional groups: what can be left out is a query parameter (spec 4.1.8).
 *
 * @category Lint
 */
export function checkRequired(parsed: ParsedPattern): LintFinding | undefined {
  if (parsed.groups.length === 0) return undefined;
  const groups = parsed.groups.map((group) => `\`${group}\``).join(', ');
  const message =
    `${groups} makes part of the path optional; a path holds only what is required to ` +
    'identify the resource, and a value that can be left out belongs in the query string';
  let fix = printWithoutGroups(parsed.items);
  // `/books/{:id}` leaves `/books/` behind; the slash only led into the optional part.
  if (fix.length > 1 && fix.endsWith('/') && !parsed.pattern.endsWith('/')) fix = fix.slice(0, -1);
  return finding('required-in-path', parsed.pattern, message, fix);
}

/**
 * Reports parameters in a row and wildcards, which break the one path structure (spec 4.1.7).
 *
 * @category Lint
 */
export function checkStructure(parsed: ParsedPattern): LintFinding[] {
  const { segments } = parsed;
  const findings: LintFinding[] = [];
  const pairs: string[] = [];
  segments.forEach((segment, i) => {
    if (hasKey(segment) && hasKey(segments[i + 1])) {
      pairs.push(`\`${segmentLabel(segment)}/${segmentLabel(segments[i + 1]!)}\``);
    }
  });
  if (pairs.length > 0) {
    const message =
      `${pairs.join(', ')} puts two parameters in a row; name the collection between them, ` +
      'as in /books/:bookId/reviews/:reviewId';
    findings.push(finding('uniform-structure', parsed.pattern, message));
  }
  const wildcards = parsed.items.flatMap((item) =>
    item.type === 'wildcard' ? [`\`*${item.name}\``] : [],
  );
  if (wildcards.length > 0) {
    const message =
      `${wildcards.join(', ')} matches any number of segments, so the paths under it have no ` +
      'fixed structure; list the allowed pattern in `allow` if that is intended';
    findings.push(finding('uniform-structure', parsed.pattern, message));
  }
  return findings;
}
