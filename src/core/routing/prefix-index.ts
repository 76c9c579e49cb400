/**
 * Buckets patterns with parameters by their literal leading segments, so a request only tries
 * the patterns that can match it.
 */

/** The characters that start path-to-regexp syntax: parameters, wildcards, groups, escapes. */
const syntax = /[:*{}()\\]/;

/** Whether a pattern is a plain path, found with one map look-up, rather than a pattern to match. */
export function isStatic(pattern: string): boolean {
  return !syntax.test(pattern);
}

/**
 * The whole literal segments a pattern starts with: `/v1/books/:id` → `['v1', 'books']`. A
 * segment that syntax starts in or joins (`:id`, `book{s}`, `books{/:id}`) is not whole, so it
 * and everything after it are left to the pattern's own matcher.
 */
export function literalSegments(pattern: string): string[] {
  const at = pattern.search(syntax);
  const literal = at === -1 ? pattern : pattern.slice(0, at);
  const segments = literal.split('/').slice(1);
  // The last piece may continue into the syntax that follows it, so it is not known to be whole.
  if (at !== -1) segments.pop();
  return segments;
}

interface Node<T> {
  readonly children: Map<string, Node<T>>;
  /** Every item whose literal segments lead here or to an ancestor, in the order added. */
  candidates: T[];
}

function node<T>(candidates: T[]): Node<T> {
  return { children: new Map(), candidates };
}

/**
 * A trie over literal leading segments. Each node keeps the full list of items that can match a
 * path reaching it, in the order they were added, so a look-up walks down and returns one list.
 */
export class PrefixIndex<T> {
  private readonly root: Node<T> = node([]);

  /**
   * Adds an item under the literal segments its pattern starts with. Items must be added in
   * declaration order: each list keeps that order, the tie-break among candidates.
   */
  add(segments: readonly string[], item: T): void {
    let current = this.root;
    for (const segment of segments) {
      let child = current.children.get(segment);
      if (child === undefined) {
        // Whatever can match a path reaching the parent can match one reaching the child.
        child = node([...current.candidates]);
        current.children.set(segment, child);
      }
      current = child;
    }
    const stack = [current];
    for (let at = stack.pop(); at !== undefined; at = stack.pop()) {
      at.candidates.push(item);
      stack.push(...at.children.values());
    }
  }

  /** The items that can match `path`, in the order they were added. */
  candidates(path: string): readonly T[] {
    let current = this.root;
    let start = 1;
    while (current.children.size > 0) {
      const end = path.indexOf('/', start);
      const child = current.children.get(end === -1 ? path.slice(start) : path.slice(start, end));
      if (child === undefined) break;
      current = child;
      if (end === -1) break;
      start = end + 1;
    }
    return current.candidates;
  }
}
