/** English plurals for collection names (spec 4.1.4, 2.5): a heuristic with known exceptions. */

// Irregular plurals map to themselves as well, so a path that already uses them passes.
const irregular: Readonly<Record<string, string>> = {
  person: 'people',
  child: 'children',
  man: 'men',
  woman: 'women',
  mouse: 'mice',
  goose: 'geese',
  tooth: 'teeth',
  foot: 'feet',
  datum: 'data',
  medium: 'media',
  criterion: 'criteria',
  phenomenon: 'phenomena',
};

// Words whose plural is the word itself, or that name a singleton on purpose.
const invariable = new Set([
  'data',
  'media',
  'news',
  'series',
  'species',
  'feedback',
  'info',
  'information',
  'metadata',
  'equipment',
  'software',
  'hardware',
  'sheep',
  'fish',
  'deer',
  'staff',
  'personnel',
  'content',
  'music',
  'health',
  'me',
]);

const plurals = new Set([...Object.values(irregular), ...invariable]);

/**
 * The last word of a segment, lower-cased: the noun that carries the number.
 */
function lastWord(text: string): string {
  const spaced = text.replace(/([a-z0-9])([A-Z])/g, '$1 $2');
  const words = spaced.split(/[^\p{L}\p{N}]+/u).filter((word) => word !== '');
  return (words[words.length - 1] ?? '').toLowerCase();
}

/**
 * Tells whether a collection name reads as plural: it ends in "s", or its last word is a known
 * irregular plural, an uncountable noun or one of `exceptions`.
 *
 * @example
 * ```ts
 * import { isPlural } from './pluralize.ts';
 *
 * isPlural('book-imports'); // true
 * ```
 *
 * @category Lint
 */
export function isPlural(text: string, exceptions: ReadonlySet<string> = new Set()): boolean {
  const word = lastWord(text);
  return (
    word === '' ||
    /s$/.test(word) ||
    plurals.has(word) ||
    exceptions.has(word) ||
    exceptions.has(text.toLowerCase())
  );
}

/**
 * Puts the last word of a name in the plural: irregular forms, y → ies after a consonant,
 * s/x/z/ch/sh → es, else + s.
 *
 * @example
 * ```ts
 * import { pluralize } from './pluralize.ts';
 *
 * pluralize('user-category'); // 'user-categories'
 * ```
 *
 * @category Lint
 */
export function pluralize(text: string): string {
  const match = /([\p{L}\p{N}]+)([^\p{L}\p{N}]*)$/u.exec(text);
  if (!match) return text;
  const [, word = '', tail = ''] = match;
  const head = text.slice(0, match.index);
  // camelCase names carry several words in one run; only the last one changes.
  const camel = /^(.*[a-z0-9])([A-Z][a-z0-9]*)$/.exec(word);
  const prefix = camel ? camel[1]! : '';
  const last = camel ? camel[2]! : word;
  const lower = last.toLowerCase();
  let plural: string;
  if (irregular[lower] !== undefined) plural = last[0] + irregular[lower]!.slice(1);
  else if (/[^aeiou]y$/i.test(last)) plural = `${last.slice(0, -1)}ies`;
  else if (/(s|x|z|ch|sh)$/i.test(last)) plural = `${last}es`;
  else plural = `${last}s`;
  return `${head}${prefix}${plural}${tail}`;
}
