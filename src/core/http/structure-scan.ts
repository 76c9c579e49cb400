/**
 * The checks of a body's structure against its bounds ([Request limits](../../../docs/limits.md)): a scan of JSON text
 * before `JSON.parse` (which has no hook for depth or size), and a walk of a value a host's own
 * parser already made. Both stop at the first bound passed.
 */
import {
  type StructureLimits,
  tooDeep,
  tooManyItems,
  tooManyMembers,
  tooManyValues,
} from './body-structure.ts';

const quote = 0x22;
const backslash = 0x5c;
const comma = 0x2c;
const openArray = 0x5b;
const closeArray = 0x5d;
const openObject = 0x7b;
const closeObject = 0x7d;

/** RFC 8259 §2: the four whitespace characters. */
const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/**
 * The index of the quote that closes the string opened at `at`, or -1 when none does. A quote
 * is escaped when an odd number of backslashes stands before it.
 */
function endOfString(text: string, at: number): number {
  let end = text.indexOf('"', at + 1);
  while (end !== -1) {
    let k = end - 1;
    while (text.charCodeAt(k) === backslash) k--;
    if ((end - k) % 2 === 1) return end;
    end = text.indexOf('"', end + 1);
  }
  return -1;
}

/**
 * Checks the structure of JSON text against `limits` before it is parsed: a 413 naming the first
 * bound passed. Text that is not JSON is left for `JSON.parse` to refuse (its counts may be off,
 * never its cost).
 *
 * Cost: linear in the text. One pass; strings are skipped by `indexOf` to their closing quote,
 * each backslash run before a quote read once more; the whitespace after an opening bracket is
 * read twice (to tell an empty container). Memory: two numbers per level, at most `maxDepth`.
 */
export function checkJsonStructure(text: string, limits: StructureLimits): void {
  const { maxDepth, maxItems, maxMembers, maxValues } = limits;
  // Per open container: how many elements it holds so far, and whether it is an array.
  const counts: number[] = [0];
  const arrays: boolean[] = [false];
  let depth = 0;
  let values = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === quote) {
      i = endOfString(text, i);
      if (i === -1) return; // unterminated: JSON.parse says where
    } else if (c === comma) {
      if (depth === 0) continue; // not JSON: JSON.parse says where
      const held = ++counts[depth]!;
      if (arrays[depth] ? held > maxItems : held > maxMembers) {
        throw arrays[depth] ? tooManyItems(maxItems) : tooManyMembers(maxMembers);
      }
      if (++values > maxValues) throw tooManyValues(maxValues);
    } else if (c === openArray || c === openObject) {
      if (++depth > maxDepth) throw tooDeep(maxDepth);
      const array = c === openArray;
      arrays[depth] = array;
      let j = i + 1;
      while (j < n && isSpace(text.charCodeAt(j))) j++;
      if (j < n && text.charCodeAt(j) !== (array ? closeArray : closeObject)) {
        // Not empty: its first element.
        counts[depth] = 1;
        if ((array ? maxItems : maxMembers) < 1) {
          throw array ? tooManyItems(maxItems) : tooManyMembers(maxMembers);
        }
        if (++values > maxValues) throw tooManyValues(maxValues);
      } else {
        counts[depth] = 0;
      }
    } else if ((c === closeArray || c === closeObject) && depth > 0) {
      depth--;
    }
  }
}

/** Typed arrays and buffers are data, not structure: a host's raw body is one value. */
const isData = (value: object) => ArrayBuffer.isView(value) || value instanceof ArrayBuffer;

/**
 * Checks a value a host's own parser made (`express.json()`, Fastify's) against `limits`, as
 * {@link checkJsonStructure} checks text: a 413 naming the first bound passed.
 *
 * Cost: linear in the values visited, at most `maxValues` (each is counted before it is
 * visited, so a value reached twice, or a cycle, ends there too); without recursion, so no depth
 * overflows the stack.
 */
export function checkValueStructure(value: unknown, limits: StructureLimits): void {
  if (typeof value !== 'object' || value === null || isData(value)) return;
  const { maxDepth, maxItems, maxMembers, maxValues } = limits;
  const pending: object[] = [value];
  const depths: number[] = [1];
  let values = 0;
  while (pending.length > 0) {
    const node = pending.pop()!;
    const depth = depths.pop()!;
    if (depth > maxDepth) throw tooDeep(maxDepth);
    const array = Array.isArray(node);
    const names = array ? undefined : Object.keys(node);
    const size = names === undefined ? (node as unknown[]).length : names.length;
    if (array ? size > maxItems : size > maxMembers) {
      throw array ? tooManyItems(maxItems) : tooManyMembers(maxMembers);
    }
    values += size;
    if (values > maxValues) throw tooManyValues(maxValues);
    for (let i = 0; i < size; i++) {
      const item =
        names === undefined ? (node as unknown[])[i] : (node as Record<string, unknown>)[names[i]!];
      if (typeof item === 'object' && item !== null && !isData(item)) {
        pending.push(item);
        depths.push(depth + 1);
      }
    }
  }
}
