/**
 * The guides appear in the documentation site in the order a newcomer reads them (typedoc.json
 * `projectDocuments`): adopting in an existing app first, then by topic. Every guide in docs/
 * is listed, so a new one cannot be left out of the site.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url);
const config = JSON.parse(readFileSync(new URL('typedoc.json', root), 'utf8')) as {
  projectDocuments: string[];
  entryPoints: string[];
};

describe('the guides in the documentation site', () => {
  it('lists every guide in docs/ exactly once', () => {
    const guides = readdirSync(new URL('docs/', root))
      .filter((name) => name.endsWith('.md'))
      .map((name) => `docs/${name}`)
      .sort();
    expect([...config.projectDocuments].sort()).toEqual(guides);
  });

  it('starts with adopting in an existing app and the conventions, not with the alphabet', () => {
    expect(config.projectDocuments.slice(0, 3)).toEqual([
      'docs/existing-apps.md',
      'docs/conventions.md',
      'docs/adapters.md',
    ]);
  });

  it('names each guide by a title, not by its file name', () => {
    for (const guide of config.projectDocuments) {
      const text = readFileSync(new URL(guide, root), 'utf8');
      // typedoc reads the front matter's title for the sidebar and the page.
      expect(text, guide).toMatch(/^---\ntitle: [A-Z0-9][^\n]+\n---\n/);
    }
  });

  it('names each module by its import path, apart from the guide of the same topic', () => {
    for (const entry of config.entryPoints) {
      const text = readFileSync(new URL(entry, root), 'utf8');
      expect(text, entry).toMatch(/@module api-conventions(\/[a-z]+)?\n/);
    }
  });
});
