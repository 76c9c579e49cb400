/**
 * The guides appear in the documentation site in groups, by what a reader is doing (each
 * guide's front matter `group`, ordered by typedoc.json `groupOrder`), and within a group in the
 * order of typedoc.json `projectDocuments`. Every guide in docs/ is listed, so a new one cannot
 * be left out of the site.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url);
const config = JSON.parse(readFileSync(new URL('typedoc.json', root), 'utf8')) as {
  projectDocuments: string[];
  entryPoints: string[];
  groupOrder: string[];
};

/** The groups of the guides, in the order the sidebar shows them. */
const groups = ['Getting started', 'Adopting', 'Security', 'Contracts', 'Operating', 'Tools'];
const groupOf = (guide: string) =>
  /^group: (.*)$/m.exec(readFileSync(new URL(guide, root), 'utf8'))?.[1];

describe('the guides in the documentation site', () => {
  it('lists every guide in docs/ exactly once', () => {
    const guides = readdirSync(new URL('docs/', root))
      .filter((name) => name.endsWith('.md'))
      .map((name) => `docs/${name}`)
      .sort();
    expect([...config.projectDocuments].sort()).toEqual(guides);
  });

  it('puts every guide in one of the six groups, listed group by group in the sidebar order', () => {
    expect(config.groupOrder.slice(0, groups.length)).toEqual(groups);
    const listed = config.projectDocuments.map(groupOf);
    expect(listed.filter((group) => !groups.includes(group ?? ''))).toEqual([]);
    expect(listed).toEqual([...listed].sort((a, b) => groups.indexOf(a!) - groups.indexOf(b!)));
    expect(config.projectDocuments.filter((g) => groupOf(g) === 'Getting started')).toEqual([
      'docs/conventions.md',
      'docs/adapters.md',
      'docs/errors.md',
    ]);
    expect(config.projectDocuments.filter((g) => groupOf(g) === 'Adopting')[0]).toBe(
      'docs/existing-apps.md',
    );
  });

  it('names each guide by a title, not by its file name', () => {
    for (const guide of config.projectDocuments) {
      const text = readFileSync(new URL(guide, root), 'utf8');
      // typedoc reads the front matter's title for the sidebar and the page.
      expect(text, guide).toMatch(/^---\ntitle: [A-Z0-9][^\n]+\ngroup: [A-Z][^\n]+\n---\n/);
    }
  });

  it('names each module by its import path, apart from the guide of the same topic', () => {
    for (const entry of config.entryPoints) {
      const text = readFileSync(new URL(entry, root), 'utf8');
      expect(text, entry).toMatch(/@module api-conventions(\/[a-z]+)?\n/);
    }
  });
});
