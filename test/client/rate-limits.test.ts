/**
 * api-conventions/client: 50 calls against a limit of 10 per second, on every host of the bookshelf through a counting proxy of the
 * tests' own.
 */
import { createClient } from 'api-conventions/client';
import { expect, it } from 'vitest';
import { createBookshelf } from '../../examples/bookshelf/app.ts';
import { describeMatrix } from '../conformance/_matrix.ts';
import { alice } from './_credentials.ts';
import { proxyFor } from './_proxy.ts';

describeMatrix(
  'the client under a rate limit of 10 per second',
  () =>
    createBookshelf({
      logger: { error() {}, warn() {} },
      rateLimit: { limit: 10, window: 1 },
    }),
  (served) => {
    const proxy = proxyFor(served);

    it('resolves 50 calls with at most a handful of 429s (spec 8.2, 8.3)', async () => {
      // The limit is the server's, as its headers state it: 10 per window (spec 8.3).
      const probe = await served.fetch('/v1/books/emma');
      expect(probe.headers.get('x-ratelimit-limit')).toBe('10');
      const c = createClient({ baseUrl: proxy.url, oauth: alice });
      const from = proxy.seen.length;
      const calls = Array.from({ length: 50 }, (_, i) =>
        c.get<{ id: string }>('/v1/books/:id', {
          params: { id: 'emma' },
          query: { format: i % 2 === 0 ? 'json' : undefined },
        }),
      );
      const books = await Promise.all(calls);
      expect(books.every((b) => b.id === 'emma')).toBe(true);
      const answers = proxy.since(from, (s) => s.target.startsWith('/v1/books'));
      const refused = answers.filter((s) => s.status === 429).length;
      expect(answers.length - refused).toBe(50);
      expect(refused).toBeLessThanOrEqual(5);
    }, 60_000);
  },
  { hostsAtOnce: true },
);
