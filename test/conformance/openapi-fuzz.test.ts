/**
 * A fuzzer driven by the document the bookshelf serves at /v1/openapi: seeded requests drawn from
 * each operation's parameters, security and body schemas, most valid, the rest broken as clients
 * break them, sent over HTTP to the bookshelf on node:http and on Fastify. Every answer is held to
 * the document, more strictly than OpenAPI asks: its status named on its operation (not only by a
 * range or `default`), its media type one the document names for it, its JSON or XML body valid
 * against that type's schema (OpenAPI 3.1 §4.8.16, §4.8.14, §4.8.26). `FUZZ_SEED` draws others.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBookshelf } from '../../examples/bookshelf/app.ts';
import { loadHost, type Running } from '../../examples/bookshelf/hosts/host.ts';
import { type Exchange, judge, type ProblemKind } from './_contract.ts';
import { drawRequest, type FuzzContext, operationsOf, Random } from './_fuzz.ts';

const quiet = { error: () => {}, warn: () => {} };
const requests = 2_000;
const seeds = process.env.FUZZ_SEED ? [Number(process.env.FUZZ_SEED)] : [36];
const client = `Basic ${Buffer.from('demo-client:demo-secret').toString('base64')}`;

for (const adapter of ['node', 'fastify'] as const) {
  for (const seed of seeds) {
    describe(`the document fuzzed against the bookshelf [${adapter}, seed ${seed}]`, () => {
      let running: Running | undefined;
      let base = '';

      beforeAll(async () => {
        const api = createBookshelf({
          logger: quiet,
          rateLimit: { limit: 1_000_000, window: 3600 },
        });
        running = await (await loadHost(adapter))(api, { port: 0, host: '127.0.0.1' });
        base = `http://127.0.0.1:${running.port}`;
      });
      afterAll(async () => {
        await running?.close();
      });

      it(`sends ${requests} requests and meets no undeclared status, media type or body (OpenAPI 3.1 §4.8.16)`, async () => {
        const document = (await (await fetch(`${base}/v1/openapi`)).json()) as Record<
          string,
          unknown
        >;
        // The tokens requests carry, kept apart from those the fuzzer may revoke or refresh.
        const tokens: { access: string[]; refresh: string[] } = { access: [], refresh: [] };
        const spare: string[] = ['not-a-token'];
        const ids = new Set<string>(['jane-austen']);
        const login = async (username: string, password: string) => {
          const res = await fetch(`${base}/v1/oauth2/token`, {
            method: 'POST',
            headers: { authorization: client, 'content-type': 'application/x-www-form-urlencoded' },
            body: `grant_type=password&username=${username}&password=${password}`,
          });
          const body = (await res.json()) as { access_token: string; refresh_token: string };
          tokens.access.push(body.access_token);
          tokens.refresh.push(body.refresh_token);
        };
        await login('alice', 'wonderland');
        await login('bob', 'builder');
        const shelf = (await (
          await fetch(`${base}/v1/books?per_page=100`, {
            headers: { authorization: `Bearer ${tokens.access[0]}` },
          })
        ).json()) as { books: { id: string }[] };
        for (const book of shelf.books) ids.add(book.id);
        const ctx: FuzzContext = {
          document,
          known: {
            id: () => [...ids],
            authorId: () => ['jane-austen', 'mark-twain', 'nobody-known'],
            username: () => ['alice', 'bob'],
            password: () => ['wonderland', 'builder'],
            client_id: () => ['demo-client', 'demo-web'],
            token: () => spare,
            refresh_token: () => spare,
            redirect_uri: () => ['https://app.example.com/callback'],
            response_type: () => ['code'],
            fields: () => [
              'id,title',
              'title,author(name)',
              'id,links',
              'colour',
              'author(colour)',
            ],
            sort: () => ['-year', 'title,-pages', 'colour'],
            q: () => ['pride', 'the'],
          },
          credentials: {
            bearer: () => tokens.access.map((t) => `Bearer ${t}`),
            basic: [client],
          },
        };
        const r = new Random(seed);
        const operations = operationsOf(document);
        // OPTIONS is on every path: drawn one time in ten, so the API's operations get the rest.
        const options = operations.filter((o) => o.method === 'OPTIONS');
        const others = operations.filter((o) => o.method !== 'OPTIONS');
        const exchanges: Exchange[] = [];
        const statuses = new Map<number, number>();
        const reached = new Set<string>();
        for (let i = 0; i < requests; i++) {
          const operation = r.pick(r.chance(0.1) && options.length > 0 ? options : others);
          const drawn = drawRequest(r, operation, ctx);
          const res = await fetch(`${base}${drawn.target}`, {
            method: drawn.method,
            headers: drawn.headers,
            redirect: 'manual',
            ...(drawn.body !== undefined ? { body: drawn.body } : {}),
          });
          const body = await res.text();
          exchanges.push({
            method: drawn.method,
            target: drawn.target,
            status: res.status,
            contentType: res.headers.get('content-type'),
            body,
          });
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          if (res.status < 400) reached.add(`${operation.method} ${operation.path}`);
          // What the service made becomes a value later requests use.
          if (res.status === 201 || res.status === 202) {
            const made = (JSON.parse(body) as { id?: string }).id;
            if (made !== undefined) ids.add(made);
          }
          if (drawn.target.startsWith('/v1/oauth2/token') && res.status === 200) {
            const token = JSON.parse(body) as { access_token: string; refresh_token?: string };
            spare.push(token.access_token);
            if (token.refresh_token !== undefined) spare.push(token.refresh_token);
          }
        }
        const problems = judge(document, exchanges, true);
        const count = (kind: ProblemKind) => problems.filter((p) => p.kind === kind).length;
        const summary = [...statuses]
          .sort(([a], [b]) => a - b)
          .map(([s, n]) => `${s}×${n}`)
          .join(' ');
        expect(exchanges.length).toBeGreaterThanOrEqual(2_000);
        // Most operations answered with a success at least once: the requests were meaningful.
        expect(reached.size, summary).toBeGreaterThan(operations.length / 2);
        expect(statuses.get(500) ?? 0, summary).toBe(0);
        expect(
          problems.slice(0, 15).map((p) => p.line),
          summary,
        ).toEqual([]);
        expect({ status: count('status'), media: count('media'), body: count('body') }).toEqual({
          status: 0,
          media: 0,
          body: 0,
        });
      }, 120_000);
    });
  }
}
