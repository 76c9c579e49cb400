/**
 * The bookshelf's documentation page (`GET /v1/docs`), Swagger UI served from the installed
 * swagger-ui-dist package and built from `GET /v1/openapi`, opened in headless Chromium on
 * every host: it lists the bookshelf's operations and nothing that is no operation of the API
 * (the page and its assets, the `.json`/`.xml` twins), each with a summary a reader can use,
 * grouped by tags; it loads nothing from outside the service, and trips no
 * Content-Security-Policy violation.
 */
import type { Browser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBookshelf } from '../../examples/bookshelf/app.ts';
import { launchChromium } from '../_chromium.ts';
import { describeMatrix } from './_matrix.ts';

describe('the documentation page in headless Chromium', () => {
  let browser: Browser | undefined;

  beforeAll(async () => {
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
  });

  describeMatrix(
    'the bookshelf',
    () => createBookshelf({ logger: { error() {}, warn() {} } }),
    (served) => {
      it('lists the bookshelf operations and no page, asset or twin, with summaries and tags, from its own assets only', async () => {
        const base = served.url('');
        const page = await browser!.newPage();
        const outside: string[] = [];
        const violations: string[] = [];
        page.on('request', (request) => {
          if (!request.url().startsWith(base) && !request.url().startsWith('data:')) {
            outside.push(request.url());
          }
        });
        page.on('console', (message) => {
          if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
        });
        try {
          const response = await page.goto(`${base}/v1/docs`, { waitUntil: 'load' });
          expect(response?.status()).toBe(200);
          await page.waitForSelector('.opblock', { timeout: 20_000 });
          const operations = await page.$$eval('.opblock-summary-path', (nodes) =>
            nodes.map((node) => node.textContent?.replace(/\u200b/g, '') ?? ''),
          );
          expect(operations).toEqual(
            expect.arrayContaining(['/v1/books', '/v1/books/{id}', '/v1/me', '/v1/oauth2/token']),
          );
          // Nothing a reader would take for an operation of the API that is none.
          const notApi = operations.filter(
            (p) => p.startsWith('/v1/docs') || /\.(json|xml)$/.test(p),
          );
          expect(notApi).toEqual([]);
          // Summaries say what an operation does, not its method and path again.
          const summaries = await page.$$eval('.opblock-summary-description', (nodes) =>
            nodes.map((node) => node.textContent ?? ''),
          );
          expect(summaries).toContain('List books');
          expect(
            summaries.filter((s) => /^(GET|PUT|POST|PATCH|DELETE|OPTIONS) \//.test(s)),
          ).toEqual([]);
          const tags = await page.$$eval('.opblock-tag', (nodes) =>
            nodes.map((node) => node.getAttribute('data-tag') ?? ''),
          );
          expect(tags).toEqual(expect.arrayContaining(['books', 'oauth']));
          expect(outside).toEqual([]);
          expect(violations).toEqual([]);
        } finally {
          await page.close();
        }
      }, 60_000);
    },
  );
});
