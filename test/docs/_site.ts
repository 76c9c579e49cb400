/**
 * The documentation site as `npm run docs` builds it (typedoc.json), built into a directory of
 * its own, and the pieces a test reads from it: its pages, its sidebar and its search index.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inflateSync } from 'node:zlib';

export const root = fileURLToPath(new URL('../../', import.meta.url));

/** What building the site printed, and where it is. */
export interface Site {
  dir: string;
  /** TypeDoc's output: every warning and error it reported (it treats warnings as errors). */
  output: string;
  status: number | null;
}

/** Builds the site with the project's typedoc.json into a new directory under .test-tmp. */
export function buildSite(): Promise<Site> {
  mkdirSync(join(root, '.test-tmp'), { recursive: true });
  const dir = mkdtempSync(join(root, '.test-tmp', 'site-'));
  const typedoc = join(root, 'node_modules', 'typedoc', 'bin', 'typedoc');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [typedoc, '--out', dir], {
      cwd: root,
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk;
    });
    child.on('error', reject);
    child.on('close', (status) => resolve({ dir, output, status }));
  });
}

/** Every HTML page of the site, by its path relative to the site's root (`documents/Errors.html`). */
export function pages(dir: string): Map<string, string> {
  const found = new Map<string, string>();
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.html')) {
        found.set(relative(dir, path).replace(/\\/g, '/'), readFileSync(path, 'utf8'));
      }
    }
  };
  walk(dir);
  return found;
}

/** Decodes one of the site's compressed data scripts (`window.searchData = "…"`). */
function readData(dir: string, file: string): unknown {
  const text = readFileSync(join(dir, 'assets', file), 'utf8');
  const encoded = /"([^"]*)"/.exec(text)?.[1];
  if (encoded === undefined) throw new Error(`No data in assets/${file}.`);
  return JSON.parse(inflateSync(Buffer.from(encoded, 'base64')).toString('utf8'));
}

/** One entry of the sidebar: a page, or a folder of entries. */
export interface NavigationEntry {
  text: string;
  path?: string;
  kind?: number;
  children?: NavigationEntry[];
}

/** The sidebar, as the site's pages draw it (`assets/navigation.js`). */
export function navigation(dir: string): NavigationEntry[] {
  return readData(dir, 'navigation.js') as NavigationEntry[];
}

/** Serves the site's files on 127.0.0.1, on a port of its own. */
export function serveSite(dir: string): Promise<{ server: Server; origin: string }> {
  const types: Record<string, string> = {
    '.html': 'text/html; charset=utf-8',
    '.js': 'text/javascript; charset=utf-8',
    '.css': 'text/css; charset=utf-8',
    '.svg': 'image/svg+xml',
  };
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://site').pathname);
    const file = join(dir, path.endsWith('/') ? `${path}index.html` : path);
    if (!file.startsWith(dir)) {
      res.writeHead(404).end();
      return;
    }
    try {
      const body = readFileSync(file);
      res.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream' });
      res.end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ server, origin: `http://127.0.0.1:${port}` });
    });
  });
}

/** The `href`s of a page's links, with the text each shows (tags removed). */
export function links(html: string): { href: string; text: string }[] {
  return [...html.matchAll(/<a\s[^>]*?href="([^"]*)"[^>]*>([\s\S]*?)<\/a>/g)].map((m) => ({
    href: m[1]!.replace(/&amp;/g, '&'),
    text: m[2]!.replace(/<[^>]*>/g, ''),
  }));
}

/** The `id`s a page's elements have: the anchors a link may name. */
export function anchors(html: string): Set<string> {
  return new Set([...html.matchAll(/\sid="([^"]*)"/g)].map((m) => m[1]!));
}

/**
 * The text a reader sees in the page's content, outside links and code blocks (the sidebar and
 * the scripts are left out too).
 */
export function plainText(html: string): string {
  const main = /<div class="col-content">([\s\S]*?)<div class="col-sidebar">/.exec(html)?.[1];
  return (main ?? html)
    .replace(/<script[\s\S]*?<\/script>/g, '')
    .replace(/<pre[\s\S]*?<\/pre>/g, '')
    .replace(/<a\s[\s\S]*?<\/a>/g, '')
    .replace(/<[^>]*>/g, '');
}
