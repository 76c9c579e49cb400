/** Shared checks for option objects, run once when a feature is created (CONTRIBUTING.md rule 5). */

/** Edit distance, to suggest the option a misspelt key was meant to be. */
function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const kept = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1));
      previous = kept;
    }
  }
  return row[b.length]!;
}

/**
 * The entry of `known` closest to a misspelt `key` (at most two edits away), if any.
 *
 * @category Host plumbing
 */
export function closestKey(key: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = 3;
  for (const candidate of known) {
    const d = distance(key.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}

/**
 * Throws a `TypeError` naming any key of `options` that is not in `known`, with the closest
 * known key as a suggestion ("Did you mean `maxAge`?").
 *
 * @category Host plumbing
 */
export function assertKnownKeys(
  where: string,
  options: object | undefined,
  known: readonly string[],
): void {
  if (options === undefined) return;
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new TypeError(`${where}: options must be an object.`);
  }
  for (const key of Object.keys(options)) {
    if (known.includes(key)) continue;
    const best = closestKey(key, known);
    const hint = best ? ` Did you mean \`${best}\`?` : ` Known options: ${known.join(', ')}.`;
    throw new TypeError(`${where}: unknown option \`${key}\`.${hint}`);
  }
}

/**
 * Throws a `TypeError` unless `value` is a whole number within `[min, max]`.
 *
 * @category Host plumbing
 */
export function assertInteger(where: string, value: unknown, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new TypeError(
      `${where} must be a whole number from ${min} to ${max}; got ${String(value)}.`,
    );
  }
  return value;
}
