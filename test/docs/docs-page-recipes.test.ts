/**
 * The documentation page recipes of docs/openapi.md ("A documentation page"), run as they are
 * written: the guide's `docs-page.ts` and each host's file are saved into a directory of their
 * own and started on a free port; headless Chromium opens `/v1/docs` on node:http, Express and
 * Hono. Swagger UI, from the installed swagger-ui-dist, lists the operations of the served
 * document, loads nothing from another origin and trips no Content-Security-Policy violation;
 * the page carries its own policy while the API's answers keep `default-src 'none'`.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../_chromium.ts';
import { freePort } from '../_ports.ts';
import { typescriptBlocks } from './_markdown.ts';
import { root } from './_site.ts';

const page = 'docs/openapi.md';
const hosts = ['node.ts', 'express.ts', 'hono.ts'];

/** The package's import paths, as the sources that the saved files run against. */
const sources: Record<string, string> = {
  'api-conventions': 'src/index.ts',
  'api-conventions/node': 'src/adapters/node.ts',
  'api-conventions/express': 'src/adapters/express.ts',
  'api-conventions/fetch': 'src/adapters/fetch.ts',
};

/** The guide's files as written, each importing the package from its sources. */
function savedFiles(): Map<string, string> {
  const blocks = typescriptBlocks(page, readFileSync(join(root, page), 'utf8'));
  const files = new Map<string, string>();
  for (const block of blocks) {
    if (block.name === undefined) continue;
    files.set(
      block.name,
      block.text.replace(/from '(api-conventions(?:\/[a-z]+)?)'/g, (whole, path: string) => {
        const source = sources[path];
        return source === undefined ? whole : `from '${join(root, source)}'`;
      }),
    );
  }
  return files;
}

/** Starts one saved file with tsx on `port`; resolves once its document answers. */
async function start(file: string, port: number): Promise<{ child: ChildProcess; log: string[] }> {
  const log: string[] = [];
  const child = spawn(process.execPath, ['--import', 'tsx', file], {
    cwd: root,
    env: { ...process.env, PORT: String(port) },
    stdio: 'pipe',
  });
  child.stdout!.on('data', (chunk: Buffer) => log.push(chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => log.push(chunk.toString()));
  const until = Date.now() + 30_000;
  while (Date.now() < until) {
    if (child.exitCode !== null) break;
    try {
      const res = await fetch(`http://127.0.0.1:${port}/v1/openapi`);
      if (res.ok) return { child, log };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  child.kill('SIGKILL');
  throw new Error(`${file} did not serve /v1/openapi on port ${port}:\n${log.join('')}`);
}

describe(`the documentation page recipes of ${page}`, () => {
  let browser: Browser | undefined;
  let dir: string;
  let files: Map<string, string>;

  beforeAll(async () => {
    files = savedFiles();
    mkdirSync(join(root, '.test-tmp'), { recursive: true });
    dir = mkdtempSync(join(root, '.test-tmp', 'docs-page-'));
    for (const [name, text] of files) writeFileSync(join(dir, name), text);
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('finds the shared page and a file for each host in the guide', () => {
    expect([...files.keys()].sort()).toEqual(['docs-page.ts', ...hosts].sort());
  });

  for (const host of hosts) {
    it(`serves Swagger UI under its own policy, from its own origin only, on ${host}`, async () => {
      const port = await freePort();
      const { child, log } = await start(join(dir, host), port);
      const tab = await browser!.newPage();
      const base = `http://127.0.0.1:${port}`;
      const outside: string[] = [];
      const violations: string[] = [];
      tab.on('request', (request) => {
        const url = request.url();
        if (!url.startsWith(base) && !url.startsWith('data:')) outside.push(url);
      });
      tab.on('console', (message) => {
        if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
      });
      try {
        const response = await tab.goto(`${base}/v1/docs`, { waitUntil: 'load' });
        expect(response?.status()).toBe(200);
        expect(response?.headers()['content-type']).toMatch(/^text\/html/);
        expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
        await tab.waitForSelector('.opblock', { timeout: 20_000 });
        const operations = await tab.$$eval('.opblock-summary-path', (nodes) =>
          nodes.map((node) => node.textContent?.replace(/\u200b/g, '') ?? ''),
        );
        expect(operations).toContain('/v1/books');
        // The page and its assets are no operations of the API.
        expect(operations.filter((p) => p.startsWith('/v1/docs'))).toEqual([]);
        expect(outside).toEqual([]);
        expect(violations).toEqual([]);
        // The API's own answers keep the strict policy.
        const books = await fetch(`${base}/v1/books`);
        expect(books.status).toBe(200);
        expect(books.headers.get('content-security-policy')).toBe(
          "default-src 'none'; frame-ancestors 'none'",
        );
      } catch (error) {
        throw new Error(`${String(error)}\n${host} said:\n${log.join('')}`);
      } finally {
        await tab.close();
        child.kill('SIGTERM');
      }
    }, 90_000);
  }
});
