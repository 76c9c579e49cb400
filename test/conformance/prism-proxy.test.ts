/**
 * Stoplight Prism's validation proxy, a tool the library did not write, run as a process of its
 * own in front of the bookshelf on node:http and on Fastify, with the document the bookshelf
 * serves at /v1/openapi. A mix of requests covers every operation of the document and every
 * class of answer the conventions produce: JSON and XML (by Accept, by `format=`, vendor types),
 * 201, 202, 204, 304, 400, 401, 403, 404, 405, 406, 410, 412, 413, 415 and 429, OPTIONS and CORS
 * preflights. Prism reports no violation of any response (OpenAPI 3.1 §4.8.16, §4.8.14).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBookshelf } from '../../examples/bookshelf/app.ts';
import { loadHost, type Running } from '../../examples/bookshelf/hosts/host.ts';
import { appOrigin } from '../../examples/bookshelf/security.ts';
import { type Prism, startPrism, type Violation, violationsOf } from './_prism.ts';

const quiet = { error: () => {}, warn: () => {} };
const client = `Basic ${Buffer.from('demo-client:demo-secret').toString('base64')}`;
const form = 'application/x-www-form-urlencoded';
const json = 'application/json';

/** One answer through the proxy. */
interface Seen {
  method: string;
  path: string;
  status: number;
  type: string | null;
  violations: Violation[];
  etag: string | null;
  location: string | null;
  body: string;
}

for (const adapter of ['node', 'fastify'] as const) {
  describe(`Prism's validation proxy in front of the bookshelf [${adapter}]`, () => {
    let running: Running | undefined;
    let prism: Prism | undefined;
    const seen: Seen[] = [];

    const send = async (method: string, path: string, init: RequestInit = {}) => {
      const res = await fetch(`${prism!.url}${path}`, { method, redirect: 'manual', ...init });
      const body = await res.text();
      const one: Seen = {
        method,
        path,
        status: res.status,
        type: res.headers.get('content-type'),
        violations: violationsOf(res),
        etag: res.headers.get('etag'),
        location: res.headers.get('location'),
        body,
      };
      seen.push(one);
      return one;
    };
    const tokenOf = async (username: string, password: string) => {
      const res = await send('POST', '/v1/oauth2/token', {
        headers: { authorization: client, 'content-type': form },
        body: `grant_type=password&username=${username}&password=${password}`,
      });
      return JSON.parse(res.body) as { access_token: string; refresh_token: string };
    };

    beforeAll(async () => {
      // A limit the mix reaches on purpose, with bob's token, once everything else is done.
      const api = createBookshelf({ logger: quiet, rateLimit: { limit: 40, window: 3600 } });
      running = await (await loadHost(adapter))(api, { port: 0, host: '127.0.0.1' });
      const upstream = `http://127.0.0.1:${running.port}`;
      const document = await (await fetch(`${upstream}/v1/openapi`)).json();
      prism = await startPrism(document, upstream);
    }, 60_000);

    afterAll(async () => {
      await prism?.close();
      await running?.close();
    });

    it('reports no violation of any response across every operation and error class (OpenAPI 3.1 §4.8.16)', async () => {
      const alice = await tokenOf('alice', 'wonderland');
      const bob = await tokenOf('bob', 'builder');
      const asAlice = { authorization: `Bearer ${alice.access_token}` };
      const asBob = { authorization: `Bearer ${bob.access_token}` };
      const jsonBody = (value: unknown) => ({
        headers: { ...asAlice, 'content-type': json },
        body: JSON.stringify(value),
      });
      const newBook = { title: 'Prism Proxy', authorId: 'jane-austen', year: 1999 };

      // Books: list and read in JSON, XML (Accept, format=), the vendor tree; 304 and 412.
      const list = await send('GET', '/v1/books?per_page=3&sort=-year&total=true', {
        headers: asAlice,
      });
      await send('GET', '/v1/books', { headers: { ...asAlice, accept: 'application/xml' } });
      await send('GET', '/v1/books?format=xml&view=small', { headers: asAlice });
      await send('GET', '/v1/books?fields=id,links', {
        headers: { ...asAlice, accept: 'application/vnd.bookshelf+json' },
      });
      await send('GET', '/v1/books', { headers: { ...asAlice, 'if-none-match': list.etag ?? '' } });
      await send('GET', '/v1/books?per_page=0', { headers: asAlice });
      await send('GET', '/v1/books?colour=red', { headers: asAlice });
      await send('GET', '/v1/books', { headers: { ...asAlice, accept: 'text/csv' } });
      await send('GET', '/v1/books');
      await send('GET', '/v1/books', { headers: { authorization: 'Bearer' } });
      await send('GET', '/v1/books', { headers: { authorization: 'Bearer not-a-token' } });
      const one = await send('GET', '/v1/books/pride-and-prejudice', { headers: asAlice });
      await send('GET', '/v1/books/pride-and-prejudice?format=xml', { headers: asAlice });
      await send('GET', '/v1/books/pride-and-prejudice?fields=title,author(name)', {
        headers: { ...asAlice, accept: 'application/xml' },
      });
      await send('GET', '/v1/books/pride-and-prejudice', {
        headers: { ...asAlice, 'if-none-match': one.etag ?? '' },
      });
      await send('GET', '/v1/books/no-such-book', { headers: asAlice });
      await send('GET', '/v1/books/no-such-book?format=xml', { headers: asAlice });
      await send('GET', '/v1/books/pride-and-prejudice?fields=colour', { headers: asAlice });
      // Writes: 201, 200, 204, 403 (bob reads only), 412, 415, 413, 400.
      const created = await send('POST', '/v1/books', jsonBody(newBook));
      const id = (JSON.parse(created.body) as { id: string }).id;
      await send('POST', '/v1/books', {
        ...jsonBody(newBook),
        headers: { ...asBob, 'content-type': json },
      });
      await send('POST', '/v1/books', jsonBody({ title: 7 }));
      await send('POST', '/v1/books', {
        headers: { ...asAlice, 'content-type': 'text/plain' },
        body: 'x',
      });
      await send('POST', '/v1/books', jsonBody({ ...newBook, title: 'x'.repeat(2_000_000) }));
      await send('PUT', `/v1/books/${id}`, jsonBody({ ...newBook, pages: 300 }));
      await send('PUT', '/v1/books/prism-made', jsonBody(newBook));
      await send('PUT', `/v1/books/${id}`, {
        ...jsonBody(newBook),
        headers: { ...asAlice, 'content-type': json, 'if-match': '"stale"' },
      });
      await send('PATCH', `/v1/books/${id}`, jsonBody({ pages: 301 }));
      await send('PATCH', `/v1/books/${id}`, jsonBody({ pages: 'many' }));
      await send('DELETE', `/v1/books/${id}`, { headers: { ...asAlice, 'if-match': '"stale"' } });
      await send('DELETE', `/v1/books/${id}`, { headers: asAlice });
      await send('DELETE', `/v1/books/${id}`, { headers: asAlice });
      await send('DELETE', '/v1/books/prism-made', { headers: asBob });
      // Imports: 202, then the status; a bad import is 400.
      const started = await send('POST', '/v1/book-imports', jsonBody({ books: [newBook] }));
      await send('GET', started.location ?? '/v1/book-imports/none', { headers: asAlice });
      await send('GET', '/v1/book-imports/none', { headers: asAlice });
      await send('POST', '/v1/book-imports', jsonBody({ books: 'none' }));
      // Authors in two versions (v1 deprecated), the retired reviews (410).
      await send('GET', '/v1/authors', { headers: asAlice });
      await send('GET', '/v1/authors/jane-austen', { headers: asAlice });
      await send('GET', '/v2/authors', { headers: asAlice });
      await send('GET', '/v2/authors/jane-austen', { headers: asAlice });
      await send('GET', '/v2/authors/nobody', { headers: asAlice });
      await send('GET', '/v1/reviews', { headers: asAlice });
      await send('GET', '/v1/me', { headers: asAlice });
      // OAuth: tokens (and their failures), introspection, revocation, keys, metadata, sign-in.
      await send('POST', '/v1/oauth2/token', {
        headers: { authorization: client, 'content-type': form },
        body: `grant_type=refresh_token&refresh_token=${alice.refresh_token}`,
      });
      await send('POST', '/v1/oauth2/token', {
        headers: { authorization: client, 'content-type': form },
        body: 'grant_type=client_credentials&scope=books:read',
      });
      await send('POST', '/v1/oauth2/token', {
        headers: { authorization: client, 'content-type': form },
        body: 'grant_type=password&username=alice&password=wrong',
      });
      await send('POST', '/v1/oauth2/token', {
        headers: { 'content-type': form },
        body: 'grant_type=password',
      });
      await send('POST', '/v1/oauth2/token', {
        headers: { authorization: client, 'content-type': json },
        body: '{}',
      });
      await send('POST', '/v1/oauth2/introspect', {
        headers: { authorization: client, 'content-type': form },
        body: `token=${alice.access_token}`,
      });
      await send('POST', '/v1/oauth2/introspect', {
        headers: { authorization: client, 'content-type': form },
        body: 'token=unknown',
      });
      await send('POST', '/v1/oauth2/revoke', {
        headers: { authorization: client, 'content-type': form },
        body: `token=${alice.refresh_token}`,
      });
      await send('GET', '/v1/oauth2/jwks');
      await send('GET', '/.well-known/oauth-authorization-server');
      await send(
        'GET',
        '/v1/oauth2/authorize?response_type=code&client_id=demo-web&redirect_uri=https://app.example.com/callback&code_challenge=E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM&code_challenge_method=S256',
      );
      await send('GET', '/v1/oauth2/authorize?response_type=code&client_id=nobody');
      await send('POST', '/v1/oauth2/authorize', {
        headers: { 'content-type': form },
        body: 'response_type=code&client_id=nobody&username=alice&password=wonderland',
      });
      await send('GET', '/v1/openapi');
      // The routes of the app itself, on the host that has them.
      if (adapter === 'fastify') {
        await send('GET', '/v1/native', { headers: asAlice });
        await send('GET', '/v1/native', { headers: asBob });
        await send('GET', '/v1/native-public');
      }
      // OPTIONS and a CORS preflight; 405 for a method the path does not allow.
      await send('OPTIONS', '/v1/books');
      await send('OPTIONS', '/v1/books/pride-and-prejudice', {
        headers: {
          origin: appOrigin,
          'access-control-request-method': 'PUT',
          'access-control-request-headers': 'authorization, content-type',
        },
      });
      await send('PATCH', '/v1/books', jsonBody({}));
      await send('GET', '/v1/Books', { headers: asAlice });
      // Bob reaches his limit: 429, with Retry-After.
      for (let i = 0; i < 40; i++) {
        const res = await send('GET', '/v1/me', { headers: asBob });
        if (res.status === 429) break;
      }

      const statuses = new Set(seen.map((s) => s.status));
      for (const status of [
        200, 201, 202, 204, 304, 400, 401, 403, 404, 405, 406, 410, 412, 413, 415, 429,
      ]) {
        expect(statuses, `the mix meets ${status}`).toContain(status);
      }
      expect(seen.some((s) => s.type?.startsWith('application/xml') && s.status === 200)).toBe(
        true,
      );
      expect(seen.some((s) => s.type?.startsWith('application/xml') && s.status === 404)).toBe(
        true,
      );
      const operations = new Set(seen.map((s) => `${s.method} ${s.path.split('?')[0]}`));
      expect(operations.size).toBeGreaterThan(30);
      const problems = seen.flatMap((s) =>
        s.violations
          .filter((v) => v.location[0] === 'response')
          .map((v) => `${s.method} ${s.path} → ${s.status} (${s.type}): ${v.message}`),
      );
      expect(problems, prism!.log().slice(-2000)).toEqual([]);
    }, 120_000);
  });
}
