/**
 * CORS and CSRF as a real browser enforces them (spec 4.8): headless Chromium loads a page from a
 * second origin and calls the bookshelf with and without credentials, sends a preflighted POST,
 * and submits a cross-site form, for an allowed origin and a foreign one. Two host names map to
 * 127.0.0.1 inside the browser, so no network is needed.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBookshelf } from '../../examples/bookshelf/app.ts';
import { launchChromium } from '../_chromium.ts';
import { describeMatrix } from './_matrix.ts';

/** What a page's `fetch` gave: the answer it could read, or the error the browser raised. */
type Outcome =
  | { read: true; status: number; body: string; location: string | null }
  | { read: false; error: string };

/** Serves one blank page on every host name, so each name is an origin of its own. */
function startPages(): Promise<{ server: Server; port: number }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><html><head><title>app</title></head><body></body></html>');
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, port: (server.address() as AddressInfo).port }),
    );
  });
}

/** Runs `fetch(url, init)` inside the page and reports what the page was allowed to see. */
function pageFetch(page: Page, url: string, init: RequestInit): Promise<Outcome> {
  return page.evaluate(
    async (target, options) => {
      try {
        const res = await fetch(target, options as RequestInit);
        return {
          read: true as const,
          status: res.status,
          body: await res.text(),
          location: res.headers.get('location'),
        };
      } catch (error) {
        return { read: false as const, error: String(error) };
      }
    },
    url,
    init as Record<string, unknown>,
  );
}

describe('CORS and CSRF in headless Chromium', () => {
  let browser: Browser | undefined;
  let pages: { server: Server; port: number } | undefined;

  beforeAll(async () => {
    pages = await startPages();
    // Two sites for one loopback server: app.test is allowed, evil.test is not.
    browser = await launchChromium([
      '--host-resolver-rules=MAP app.test 127.0.0.1, MAP evil.test 127.0.0.1',
    ]);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((done) => pages?.server.close(done) ?? done(undefined));
  });

  // Every host in one browser; each host gets a bookshelf that also allows the test page's origin.
  const allowedOrigin = () => `http://app.test:${pages!.port}`;
  describeMatrix(
    'the bookshelf',
    () =>
      createBookshelf({
        logger: { error() {}, warn() {} },
        security: { extraOrigins: [allowedOrigin()] },
      }),
    (served) => {
      const { adapter } = served;
      describe('from an allowed and a foreign origin', () => {
        let allowedPage: Page | undefined;
        let foreignPage: Page | undefined;
        let apiUrl = '';
        let auth: Record<string, string> = {};

        beforeAll(async () => {
          apiUrl = served.url('');
          const authorization = await served.authorization('alice');
          auth = authorization === undefined ? {} : { authorization };
          allowedPage = await browser!.newPage();
          await allowedPage.goto(`${allowedOrigin()}/`);
          foreignPage = await browser!.newPage();
          await foreignPage.goto(`http://evil.test:${pages!.port}/`);
        }, 60_000);

        afterAll(async () => {
          await allowedPage?.close();
          await foreignPage?.close();
        });

        /** A preflighted POST of a new book from `page`, with credentials. */
        const postBook = (page: Page, title: string) =>
          pageFetch(page, `${apiUrl}/v1/books`, {
            method: 'POST',
            credentials: 'include',
            headers: { ...auth, 'content-type': 'application/json' },
            body: JSON.stringify({ title, authorId: 'frank-herbert', year: 1965 }),
          });

        it('lets the allowed origin read a list fetched without credentials', async () => {
          const got = await pageFetch(allowedPage!, `${apiUrl}/v1/books`, {
            credentials: 'omit',
            headers: auth,
          });
          expect(got.read).toBe(true);
          if (!got.read) return;
          expect(got.status).toBe(200);
          expect(JSON.parse(got.body).books).toHaveLength(20);
        });

        it('lets the allowed origin read a list fetched with credentials', async () => {
          const got = await pageFetch(allowedPage!, `${apiUrl}/v1/books`, {
            credentials: 'include',
            headers: auth,
          });
          expect(got).toMatchObject({ read: true, status: 200 });
        });

        it('lets the allowed origin send a preflighted POST and read the exposed Location', async () => {
          const got = await postBook(allowedPage!, 'Allowed Origin');
          expect(got).toMatchObject({ read: true, status: 201 });
          if (got.read) expect(got.location).toBe('/v1/books/allowed-origin');
        });

        // A preflight for a path only an app-owned route serves lists its methods, so a
        // browser sends the request with Authorization and reads the answer.
        it.skipIf(adapter === 'node')(
          'lets the allowed origin fetch an app-owned route with Authorization',
          async () => {
            const got = await pageFetch(allowedPage!, `${apiUrl}/v1/native`, {
              credentials: 'omit',
              headers: auth,
            });
            expect(got).toMatchObject({ read: true, status: 200 });
            if (got.read) expect(JSON.parse(got.body)).toMatchObject({ subject: 'alice' });
          },
        );

        it('keeps a foreign origin from reading the list, with or without credentials', async () => {
          for (const credentials of ['omit', 'include'] as const) {
            const got = await pageFetch(foreignPage!, `${apiUrl}/v1/books`, {
              credentials,
              headers: auth,
            });
            expect(got.read, credentials).toBe(false);
          }
        });

        it('stops a foreign origin’s preflighted POST before it is sent', async () => {
          const got = await postBook(foreignPage!, 'Foreign Origin');
          expect(got.read).toBe(false);
          const check = await fetch(`${apiUrl}/v1/books/foreign-origin`, { headers: auth });
          expect(check.status).toBe(404);
        });

        it('refuses a cross-site form POST with 403 and the error body (CSRF)', async () => {
          const page = foreignPage!;
          const [answer] = await Promise.all([
            page.waitForNavigation(),
            page.evaluate((action) => {
              const form = document.createElement('form');
              form.method = 'POST';
              form.action = action;
              for (const [name, value] of [
                ['title', 'Forged Form'],
                ['authorId', 'frank-herbert'],
                ['year', '1965'],
              ]) {
                const input = document.createElement('input');
                input.name = name!;
                input.value = value!;
                form.append(input);
              }
              document.body.append(form);
              form.submit();
            }, `${apiUrl}/v1/books`),
          ]);
          expect(answer?.status()).toBe(403);
          expect(JSON.parse(await answer!.text()).errors[0].code).toBe(40304);
          const check = await fetch(`${apiUrl}/v1/books/forged-form`, { headers: auth });
          expect(check.status).toBe(404);
          await page.goto(`http://evil.test:${pages!.port}/`);
        });
      });
    },
  );
});
