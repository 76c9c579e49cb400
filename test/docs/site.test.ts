/**
 * The documentation site as a reader meets it, built once as `npm run docs` builds it
 * (typedoc.json) and read page by page: it builds without a warning; the search box finds the
 * guide that answers each of a new reader's words (in headless Chromium); every link inside
 * it resolves to a page and an anchor that exist, no guide is linked on GitHub instead and no
 * "docs/x.md" is left as plain text; the sidebar groups the guides and the reference, with the
 * subpaths in sight; headings keep their inline code; the reference pages of the main entry
 * points link to their guide, and each guide to the functions it names.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { dirname, join, normalize } from 'node:path';
import type { Browser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../_chromium.ts';
import {
  anchors,
  buildSite,
  links,
  type NavigationEntry,
  navigation,
  pages,
  plainText,
  root,
  type Site,
  serveSite,
} from './_site.ts';

const config = JSON.parse(readFileSync(join(root, 'typedoc.json'), 'utf8')) as {
  projectDocuments: string[];
  groupOrder: string[];
  categoryOrder: string[];
};

/** A guide: its file, its title and group (front matter), and its page on the site. */
interface Guide {
  file: string;
  title: string;
  group: string;
  markdown: string;
  page: string;
}

/** The entities TypeDoc writes in text, decoded. */
const decode = (text: string) =>
  text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&#x27;/g, "'")
    .replace(/&amp;/g, '&');

/** The lines of a Markdown page outside its fenced code blocks. */
function prose(markdown: string): string[] {
  const lines: string[] = [];
  let fence: string | undefined;
  for (const line of markdown.split('\n')) {
    const open = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (open !== undefined) {
      if (fence === undefined) fence = open;
      else if (open[0] === fence[0] && open.length >= fence.length) fence = undefined;
      continue;
    }
    if (fence === undefined) lines.push(line);
  }
  return lines;
}

let site: Site;
let html: Map<string, string>;
let guides: Guide[];

beforeAll(async () => {
  site = await buildSite();
  html = pages(site.dir);
  const byTitle = new Map<string, string>();
  const walk = (entries: NavigationEntry[]) => {
    for (const entry of entries) {
      if (entry.path?.startsWith('documents/')) byTitle.set(entry.text, entry.path);
      walk(entry.children ?? []);
    }
  };
  walk(navigation(site.dir));
  guides = config.projectDocuments.map((file) => {
    const markdown = readFileSync(join(root, file), 'utf8');
    const title = /^title: (.*)$/m.exec(markdown)?.[1] ?? '';
    const group = /^group: (.*)$/m.exec(markdown)?.[1] ?? '';
    return { file, title, group, markdown, page: byTitle.get(title) ?? '' };
  });
}, 600_000);

afterAll(() => {
  if (site?.dir) rmSync(site.dir, { recursive: true, force: true });
});

describe('the documentation site', () => {
  it('builds with no warning (typedoc.json treats warnings as errors)', () => {
    expect(site.output).not.toMatch(/\[(warning|error)\]/);
    expect(site.status).toBe(0);
    for (const guide of guides) expect(html.has(guide.page), guide.file).toBe(true);
  });

  it('gives each page one title', () => {
    const twice = [...html]
      .filter(([, page]) => (page.match(/<h1[\s>]/g) ?? []).length !== 1)
      .map(([path]) => path);
    expect(twice).toEqual([]);
  });

  it('has no broken link inside the site: every page and anchor a link names exists', () => {
    const ids = new Map([...html].map(([path, page]) => [path, anchors(page)]));
    const broken: string[] = [];
    for (const [path, page] of html) {
      for (const { href, text } of links(page)) {
        if (/^[a-z]+:/i.test(href)) continue;
        const [file = '', anchor] = href.split('#');
        const target = file ? normalize(join(dirname(path), file)).replace(/\\/g, '/') : path;
        if (/\.(css|js|svg|png)$/.test(target)) {
          if (!existsSync(join(site.dir, target))) broken.push(`${path}: ${href}`);
          continue;
        }
        const targetIds = ids.get(target);
        if (targetIds === undefined || (anchor && !targetIds.has(decodeURIComponent(anchor)))) {
          broken.push(`${path}: ${href} (${text})`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it('links its own pages, not GitHub copies of them, and no "docs/x.md" is plain text', () => {
    const offSite: string[] = [];
    const plain: string[] = [];
    for (const [path, page] of html) {
      for (const { href } of links(page)) {
        if (/github\.com\/[^#]*\/blob\/[^/]+\/(docs\/[a-z-]+\.md|README\.md)/.test(href)) {
          offSite.push(`${path}: ${href}`);
        }
      }
      const text = plainText(page);
      for (const m of text.matchAll(/\bdocs\/[a-z-]+\.md\b/g)) {
        plain.push(`${path}: …${text.slice(Math.max(0, m.index - 40), m.index + 30)}…`);
      }
    }
    expect(offSite).toEqual([]);
    expect(plain).toEqual([]);
  });

  it('makes no link of a plain file name ("CONTRIBUTING.md rule 6" is no web address)', () => {
    const accidental = [...html].flatMap(([path, page]) =>
      links(page)
        .filter(({ href }) => /^https?:\/\/[^/]+\.(md|ts|json)(\/|$)/i.test(href))
        .map(({ href }) => `${path}: ${href}`),
    );
    expect(accidental).toEqual([]);
    const benchmarks = guides.find((g) => g.file === 'docs/benchmarks.md')!;
    expect(plainText(html.get(benchmarks.page)!)).toContain('(CONTRIBUTING.md rule 19)');
  });

  it("lists every guide on the front page, linked to the guide's page on the site", () => {
    const targets = new Set(links(html.get('index.html')!).map(({ href }) => href.split('#')[0]));
    expect(guides.filter((g) => !targets.has(g.page)).map((g) => g.file)).toEqual([]);
  });

  it('keeps inline code in headings: in the heading, its anchor and "On this page"', () => {
    const missing: string[] = [];
    let seen = 0;
    for (const guide of guides) {
      const page = html.get(guide.page)!;
      const toc = new Set(
        links(page)
          .filter(({ href }) => href.startsWith('#'))
          .map(({ text }) => decode(text).trim()),
      );
      for (const line of prose(guide.markdown)) {
        const heading = /^#{2,4}\s+(.*`.*)$/.exec(line)?.[1];
        if (heading === undefined) continue;
        seen++;
        const text = heading.replace(/`/g, '').trim();
        if (!toc.has(text)) missing.push(`${guide.file}: ${text}`);
      }
    }
    expect(seen).toBeGreaterThan(5);
    expect(missing).toEqual([]);
    // The anchor holds the code too, as GitHub's does.
    expect(anchors(html.get(guides.find((g) => g.file === 'docs/openapi.md')!.page)!)).toContain(
      'fastify-route-schemas-and-fastifyswagger',
    );
  });
});

describe('the sidebar', () => {
  it('groups the guides, then the reference, in the order of typedoc.json', () => {
    const top = navigation(site.dir);
    const groups = config.groupOrder.filter((g) => g !== '*' && g !== 'Modules');
    expect(top.map((e) => e.text)).toEqual([...groups, 'Modules']);
    for (const group of top.filter((e) => e.text !== 'Modules')) {
      expect(group.path, group.text).toBeUndefined();
      expect(group.children?.map((e) => e.text)).toEqual(
        guides.filter((g) => g.group === group.text).map((g) => g.title),
      );
    }
  });

  it("puts the subpaths beside the root module, whose symbols are in its categories' folders", () => {
    const modules = navigation(site.dir).find((e) => e.text === 'Modules')!;
    expect(modules.children?.map((e) => e.text)).toEqual([
      'api-conventions',
      'api-conventions/audit',
      'api-conventions/client',
      'api-conventions/express',
      'api-conventions/fastify',
      'api-conventions/fetch',
      'api-conventions/host',
      'api-conventions/koa',
      'api-conventions/lint',
      'api-conventions/nest',
      'api-conventions/node',
      'api-conventions/oauth',
      'api-conventions/otel',
      'api-conventions/redis',
      'api-conventions/spectral',
    ]);
    const rootModule = modules.children![0]!;
    const folders = rootModule.children ?? [];
    // Every symbol of the root sits in a category folder, and the folders keep categoryOrder.
    expect(folders.filter((e) => e.path !== undefined).map((e) => e.text)).toEqual([]);
    const order = folders.map((e) => config.categoryOrder.indexOf(e.text));
    expect(order).not.toContain(-1);
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(folders[0]?.text).toBe('Start here');
  });
});

describe('links between the reference and the guides', () => {
  const page = (title: string) => guides.find((g) => g.title === title)!.page;
  // The reference page of each main entry point, and the guide it must link to.
  const entryPoints: [string, string][] = [
    ['functions/api-conventions.conventions.html', 'The conventions, rule by rule'],
    ['functions/api-conventions.bearer.html', 'Your identity provider'],
    ['functions/api-conventions.bearer.html', 'Access tokens'],
    ['functions/api-conventions.rateLimit.html', 'Rate limits'],
    ['classes/api-conventions_redis.RedisStore.html', 'Redis'],
    ['variables/api-conventions.ErrorCode.html', 'Errors'],
    ['functions/api-conventions_client.createClient.html', 'Client'],
    ['functions/api-conventions_audit.audit.html', 'The conformance auditor'],
    ['functions/api-conventions_otel.telemetry.html', 'Observability'],
    ['functions/api-conventions_host.bindHost.html', 'Extending'],
    ['functions/api-conventions_node.toNodeHandler.html', 'Adapters'],
    ['functions/api-conventions_express.toExpressMiddleware.html', 'Adopting in an existing app'],
    ['functions/api-conventions_fastify.toFastifyPlugin.html', 'Adopting in an existing app'],
    ['functions/api-conventions_fetch.toFetchMiddleware.html', 'Adopting in an existing app'],
    ['functions/api-conventions_fetch.toFetchHandler.html', 'Adapters'],
  ];
  for (const [reference, title] of entryPoints) {
    it(`links ${reference} to the guide "${title}"`, () => {
      const from = html.get(reference);
      expect(from, reference).toBeDefined();
      const targets = links(from!).map(({ href }) =>
        normalize(join(dirname(reference), href.split('#')[0]!)),
      );
      expect(targets).toContain(page(title));
    });
  }

  it('links each function a guide calls (`name()` in its text) to its reference page', () => {
    // Each function's pages: one, or one per subpath where each adapter has its own
    // (`identityOf`), when any of them will do.
    const functions = new Map<string, string[]>();
    for (const path of html.keys()) {
      const name = /^functions\/api-conventions(?:_[a-z]+)?\.([A-Za-z]+)\.html$/.exec(path)?.[1];
      if (name) functions.set(name, [...(functions.get(name) ?? []), path]);
    }
    const unlinked: string[] = [];
    let checked = 0;
    for (const guide of guides) {
      const targets = new Set(
        links(html.get(guide.page)!).map(({ href }) =>
          normalize(join(dirname(guide.page), href.split('#')[0]!)),
        ),
      );
      const called = new Set<string>();
      for (const line of prose(guide.markdown)) {
        if (/^#{1,6}\s/.test(line)) continue;
        for (const m of line.matchAll(/`([A-Za-z]+)\([^`]*\)`/g)) called.add(m[1]!);
      }
      for (const name of called) {
        const references = functions.get(name);
        if (references === undefined) continue;
        checked++;
        if (!references.some((r) => targets.has(r))) unlinked.push(`${guide.file}: ${name}()`);
      }
    }
    expect(checked).toBeGreaterThan(50);
    expect(unlinked).toEqual([]);
  });
});

describe('search, in headless Chromium', () => {
  let browser: Browser | undefined;
  let served: { server: Server; origin: string } | undefined;

  beforeAll(async () => {
    served = await serveSite(site.dir);
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => served?.server.close(resolve));
  });

  /** The titles of the results the search box shows for `query`, best first. */
  async function search(query: string): Promise<string[]> {
    const tab = await browser!.newPage();
    try {
      await tab.goto(`${served!.origin}/index.html`, { waitUntil: 'load' });
      // The index is ready once the status line is cleared (it is decompressed in the page).
      await tab.waitForFunction(
        () =>
          window.searchData !== undefined &&
          !document.getElementById('tsd-search-status')?.textContent,
      );
      await tab.click('#tsd-search-trigger');
      await tab.type('#tsd-search-input', query);
      await tab.waitForSelector('#tsd-search-results li', { timeout: 5_000 });
      return await tab.$$eval('#tsd-search-results li a .text', (nodes) =>
        nodes.map((node) => node.textContent?.trim() ?? ''),
      );
    } finally {
      await tab.close();
    }
  }

  it('shows every subpath in the sidebar without scrolling, once "Modules" is open', async () => {
    const tab = await browser!.newPage();
    try {
      await tab.setViewport({ width: 1280, height: 800 });
      await tab.goto(`${served!.origin}/index.html`, { waitUntil: 'load' });
      await tab.waitForSelector('#tsd-nav-container summary[data-key="Modules"]');
      await tab.click('#tsd-nav-container summary[data-key="Modules"]');
      const bottoms = await tab.$$eval(
        '#tsd-nav-container a[href*="modules/api-conventions_"]',
        (links) => links.map((link) => link.getBoundingClientRect().bottom),
      );
      expect(bottoms).toHaveLength(14);
      expect(Math.max(...bottoms)).toBeLessThanOrEqual(800);
    } finally {
      await tab.close();
    }
  }, 30_000);

  // A new reader's words, and the guide that answers them.
  const questions: [string, string][] = [
    ['auth0', 'Your identity provider'],
    ['keycloak', 'Your identity provider'],
    ['zod', 'Typed contracts'],
    ['swagger', 'OpenAPI 3.1'],
    ['react', 'Client'],
    ['browser', 'Client'],
    ['express', 'Adopting in an existing app'],
    ['error codes', 'Errors'],
  ];
  for (const [query, title] of questions) {
    it(`finds the guide "${title}" among the first five results for "${query}"`, async () => {
      const results = await search(query);
      expect(results.slice(0, 5), results.join(' | ')).toContain(title);
    }, 30_000);
  }
});

declare global {
  interface Window {
    searchData?: string;
  }
}
