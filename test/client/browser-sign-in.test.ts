/**
 * Sign-in from a browser: headless Chromium loads a page of its own origin that uses
 * api-conventions/client as a public client (no secret): it sends the user to the bookshelf's
 * authorization endpoint (authorization code with PKCE S256), the user signs in there, and back
 * on the page the client trades the code for tokens kept in memory, pages the books and
 * refreshes its 2-second token (RFC 6749 §4.1, RFC 7636, RFC 9700 §2.1.1), on every host.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBookshelf } from '../../examples/bookshelf/app.ts';
import { launchChromium } from '../_chromium.ts';
import { describeMatrix } from '../conformance/_matrix.ts';
import { bundle } from '../runtimes/_runtimes.ts';

/** The app: one page at `/` and `/signed-in`, its script the bundled client; `api` set per host. */
interface App {
  readonly server: Server;
  readonly origin: string;
  api: string;
}

async function startApp(script: string): Promise<App> {
  const server = createServer((req, res) => {
    if (req.url === '/app.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
      return;
    }
    const config = JSON.stringify({ api: app.api, redirectUri: `${app.origin}/signed-in` });
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      `<!doctype html><html><head><title>app</title><script id="config" type="application/json">${config}</script>` +
        '<script type="module" src="/app.js"></script></head><body></body></html>',
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  // localhost is a secure context (WebCrypto's digest needs one) and another origin than the API's.
  const app: App = {
    server,
    origin: `http://localhost:${(server.address() as AddressInfo).port}`,
    api: '',
  };
  return app;
}

/** Resolves once the page has loaded a URL that passes `test`. */
function loaded(page: Page, test: (url: string) => boolean): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      if (!test(page.url())) return;
      page.off('load', check);
      resolve();
    };
    page.on('load', check);
  });
}

describe('sign-in from a browser with PKCE, in headless Chromium', () => {
  let browser: Browser | undefined;
  let app: App | undefined;

  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'browser-app-'));
    const out = join(dir, 'app.js');
    await bundle(fileURLToPath(new URL('./_browser-app.ts', import.meta.url)), out);
    const script = readFileSync(out, 'utf8');
    rmSync(dir, { recursive: true, force: true });
    app = await startApp(script);
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((done) => app?.server.close(done) ?? done(undefined));
  });

  describeMatrix(
    'the bookshelf',
    () =>
      createBookshelf({
        logger: { error() {}, warn() {} },
        security: { extraOrigins: [app!.origin] },
        oauth: { tokenTtl: 2, browserRedirectUris: [`${app!.origin}/signed-in`] },
      }),
    (served) => {
      it('signs alice in without a client secret, pages every book and refreshes in memory (RFC 7636 §4; RFC 6749 §4.1, §6)', async () => {
        app!.api = served.url('');
        const page = await browser!.newPage();
        const tokenRequests: { body: string; authorization: string | undefined }[] = [];
        page.on('request', (request) => {
          if (request.url() === `${served.url('')}/v1/oauth2/token`) {
            tokenRequests.push({
              body: request.postData() ?? '',
              authorization: request.headers().authorization,
            });
          }
        });
        try {
          // The app sends the user to the authorization endpoint…
          const atServer = loaded(page, (url) =>
            url.startsWith(`${served.url('')}/v1/oauth2/authorize?`),
          );
          await page.goto(`${app!.origin}/`);
          await atServer;
          const asked = new URL(page.url()).searchParams;
          expect(asked.get('client_id')).toBe('demo-browser');
          expect(asked.get('code_challenge_method')).toBe('S256');
          expect(asked.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
          expect(asked.get('state')).toMatch(/^[A-Za-z0-9_-]{22}$/);
          expect(
            JSON.parse(await page.evaluate(() => document.body.textContent ?? '')),
          ).toMatchObject({
            clientId: 'demo-browser',
            scope: 'books:read',
          });
          // …where the user signs in, on the authorization server's own page (the bookshelf's
          // endpoint takes the request's parameters with the username and password as a form).
          const back = loaded(page, (url) => url.startsWith(`${app!.origin}/signed-in?`));
          await page.evaluate(() => {
            const form = document.createElement('form');
            form.method = 'POST';
            form.action = location.pathname;
            const fields = [...new URLSearchParams(location.search)];
            fields.push(['username', 'alice'], ['password', 'wonderland']);
            for (const [name, value] of fields) {
              const input = document.createElement('input');
              input.name = name;
              input.value = value;
              form.append(input);
            }
            document.body.append(form);
            form.submit();
          });
          await back;
          await page.waitForFunction(() => window.outcome !== undefined, { timeout: 20_000 });
          const outcome = await page.evaluate(() => window.outcome);
          expect(outcome).toEqual({
            before: 'sign-in',
            books: 60,
            unique: 60,
            me: { id: 'alice', clientId: 'demo-browser', scopes: ['books:read'] },
            later: { id: 'alice', clientId: 'demo-browser', scopes: ['books:read'] },
            replay: 'sign-in',
            storage: [],
          });
          // The page proved the client with its PKCE verifier, never with a secret.
          const grants = tokenRequests.map((r) => new URLSearchParams(r.body));
          expect(grants.map((g) => g.get('grant_type'))).toEqual([
            'authorization_code',
            'refresh_token',
          ]);
          expect(grants[0]?.get('code_verifier')).toMatch(/^[A-Za-z0-9_-]{43}$/);
          expect(grants.every((g) => g.get('client_id') === 'demo-browser')).toBe(true);
          expect(tokenRequests.every((r) => r.authorization === undefined)).toBe(true);
        } finally {
          await page.close();
        }
      }, 40_000);
    },
  );
});
