import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, root), 'utf8');

/** Every `.ts` file under `dir`, relative to the repository root. */
function sources(dir: string): string[] {
  return readdirSync(new URL(dir, root), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts'))
    .map((name) => `${dir}${name.replace(/\\/g, '/')}`);
}

interface Citation {
  at: string;
  section: string;
}

const number = String.raw`\d+(?:\.\d+)*`;
const joiner = String.raw`\s*(?:,|–|-|and)\s*`;
// "spec 4.1.3", "spec 2.7, 2.8, 4.4", "spec 4.1.2–4.1.6": each number named is a citation.
const citation = new RegExp(String.raw`\bspec (${number}(?:${joiner}${number})*)`, 'gi');
// The lint's findings carry their section as a string: `section: '4.1.3'`.
const sectionLiteral = /'(\d+(?:\.\d+)+)'/g;

function citationsIn(path: string, sectionLiterals = false): Citation[] {
  return read(path)
    .split('\n')
    .flatMap((line, i) => {
      const at = `${path}:${i + 1}`;
      const cited = [...line.matchAll(citation)].flatMap((m) => m[1]!.split(new RegExp(joiner)));
      const literals = sectionLiterals ? [...line.matchAll(sectionLiteral)].map((m) => m[1]!) : [];
      return [...cited, ...literals].map((section) => ({ at, section }));
    });
}

const conventions = read('docs/conventions.md');
const anchors = new Set(
  [...conventions.matchAll(/<a id="spec-([\d-]+)"><\/a>/g)].map((m) => m[1]!.replace(/-/g, '.')),
);
const unresolved = (cited: Citation[]) => cited.filter(({ section }) => !anchors.has(section));

describe('docs/conventions.md', () => {
  it('has an anchor for every section and numbered rule the library follows', () => {
    const range = (prefix: string, last: number) =>
      Array.from({ length: last }, (_, i) => `${prefix}${i + 1}`);
    const expected = [
      ...range('', 9),
      ...range('2.', 12),
      ...range('4.', 9),
      ...range('4.1.', 9),
      ...range('5.', 8),
      '7.1',
      '7.2',
      ...range('7.1.', 5),
      ...range('8.', 4),
      ...range('9.', 8),
    ];
    expect(expected.filter((section) => !anchors.has(section))).toEqual([]);
  });

  it('resolves every "spec N.N" cited in src', () => {
    const cited = sources('src/').flatMap((path) =>
      citationsIn(path, path.startsWith('src/core/lint/')),
    );
    expect(cited.length).toBeGreaterThan(50);
    expect(unresolved(cited)).toEqual([]);
  });

  it('resolves every section cited in the README, its coverage table included, and the adapters guide', () => {
    const table = read('README.md')
      .split('\n')
      .flatMap((line, i) => {
        const cell = /^\| ([\d.,–\s]+) \|/.exec(line)?.[1];
        return cell
          ? cell.split(/,|–/).map((s) => ({ at: `README.md:${i + 1}`, section: s.trim() }))
          : [];
      });
    expect(table.length).toBeGreaterThan(20);
    const cited = [...table, ...citationsIn('README.md'), ...citationsIn('docs/adapters.md')];
    expect(unresolved(cited)).toEqual([]);
  });

  it('links only to anchors it has', () => {
    const links = [...conventions.matchAll(/\]\(#spec-([\d-]+)\)/g)].map((m) => ({
      at: 'docs/conventions.md',
      section: m[1]!.replace(/-/g, '.'),
    }));
    expect(links.length).toBeGreaterThan(5);
    expect(unresolved(links)).toEqual([]);
  });
});
