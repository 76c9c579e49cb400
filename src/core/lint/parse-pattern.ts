/** Reads a path-to-regexp v8 pattern into flat items and segments, and prints it back. */
import { parse, stringify, type Token, TokenData } from 'path-to-regexp';

/**
 * One piece of a pattern in reading order. Text never holds a '/': slashes are items of their
 * own so segment edges are plain to see, and groups become `open`/`close` marks so they can be
 * printed back unchanged.
 *
 * @category Lint
 */
export type Item =
  | { type: 'slash' }
  | { type: 'text'; value: string }
  | { type: 'param'; name: string }
  | { type: 'wildcard'; name: string }
  | { type: 'open' }
  | { type: 'close' };

/**
 * A text, parameter or wildcard item of a segment, with its place in the item list.
 *
 * @category Lint
 */
interface Part {
  /** Index of the item in {@link ParsedPattern.items}. */
  at: number;
  item: Extract<Item, { type: 'text' | 'param' | 'wildcard' }>;
  /** Whether the item sits inside an optional `{…}` group. */
  optional: boolean;
}

/**
 * The parts between two slashes.
 *
 * @category Lint
 */
export interface Segment {
  parts: Part[];
  /** The segment's text when every part is text, else `undefined`. */
  text: string | undefined;
}

/**
 * A pattern that parsed, ready for the rules.
 *
 * @category Lint
 */
export interface ParsedPattern {
  pattern: string;
  items: readonly Item[];
  segments: readonly Segment[];
  /** Each optional group as written, e.g. `{/:id}`. */
  groups: readonly string[];
}

function flatten(tokens: readonly Token[], items: Item[], groups: string[]): void {
  for (const token of tokens) {
    if (token.type === 'group') {
      groups.push(stringify(new TokenData([token])));
      items.push({ type: 'open' });
      flatten(token.tokens, items, groups);
      items.push({ type: 'close' });
    } else if (token.type === 'text') {
      token.value.split('/').forEach((value, i) => {
        if (i > 0) items.push({ type: 'slash' });
        if (value !== '') items.push({ type: 'text', value });
      });
    } else {
      items.push({ type: token.type, name: token.name });
    }
  }
}

function segmentsOf(items: readonly Item[]): Segment[] {
  const segments: Segment[] = [];
  let depth = 0;
  items.forEach((item, at) => {
    if (item.type === 'open') depth++;
    else if (item.type === 'close') depth--;
    else if (item.type === 'slash' || segments.length === 0) segments.push({ parts: [], text: '' });
    if (item.type === 'text' || item.type === 'param' || item.type === 'wildcard') {
      const segment = segments[segments.length - 1]!;
      segment.parts.push({ at, item, optional: depth > 0 });
      segment.text =
        segment.text !== undefined && item.type === 'text' ? segment.text + item.value : undefined;
    }
  });
  return segments;
}

/**
 * Parses a pattern, or returns the reason it is not one (spec 4.1 needs a path to lint).
 *
 * @category Lint
 */
export function parsePattern(pattern: string): ParsedPattern | { error: string } {
  if (!pattern.startsWith('/')) return { error: 'a route pattern starts with `/`' };
  let tokens: Token[];
  try {
    tokens = parse(pattern).tokens;
  } catch (error) {
    // path-to-regexp appends a help link after ';'; the part before it says what is wrong.
    const reason = error instanceof Error ? error.message.split(';')[0]! : String(error);
    return {
      error:
        `path-to-regexp cannot parse it: ${reason}; write it in path-to-regexp v8 syntax, as in ` +
        '`/v1/books/:id`, with `\\` before a `(`, `)`, `[`, `]`, `?`, `+`, `!`, `{` or `}` meant literally',
    };
  }
  const items: Item[] = [];
  const groups: string[] = [];
  flatten(tokens, items, groups);
  return { pattern, items, segments: segmentsOf(items), groups };
}

/**
 * Prints items back into a pattern; an item replaced by `null` is left out.
 *
 * @category Lint
 */
export function printPattern(items: readonly (Item | null)[]): string {
  const stack: Token[][] = [[]];
  for (const item of items) {
    if (item === null) continue;
    const level = stack[stack.length - 1]!;
    if (item.type === 'open') stack.push([]);
    else if (item.type === 'close') {
      const tokens = stack.pop()!;
      stack[stack.length - 1]!.push({ type: 'group', tokens });
    } else if (item.type === 'param' || item.type === 'wildcard') level.push({ ...item });
    else {
      const value = item.type === 'slash' ? '/' : item.value;
      const last = level[level.length - 1];
      if (last?.type === 'text') last.value += value;
      else level.push({ type: 'text', value });
    }
  }
  return stringify(new TokenData(stack[0]!)) || '/';
}

/**
 * Prints the pattern with every optional group left out (spec 4.1.8).
 *
 * @category Lint
 */
export function printWithoutGroups(items: readonly Item[]): string {
  let depth = 0;
  return printPattern(
    items.map((item) => {
      if (item.type === 'open') depth++;
      const inside = depth > 0;
      if (item.type === 'close') depth--;
      return inside ? null : item;
    }),
  );
}

/**
 * The first segment when it names a version such as `v1` or `v1.2` (spec 9.1, 9.3).
 *
 * @category Lint
 */
export function versionOf(parsed: ParsedPattern): string | undefined {
  const text = parsed.segments[0]?.text;
  return text !== undefined && /^v\d+(\.\d+)*$/i.test(text) ? text : undefined;
}
