import { conventions, createJobs, seeOther } from 'api-conventions';
import { expect, it } from 'vitest';
import { createBookshelf } from '../../examples/bookshelf/app.ts';
import { describeMatrix, type Served } from './_matrix.ts';

const quiet = { logger: { error() {}, warn() {} } };
const json = { 'content-type': 'application/json' };

/** Polls a status resource until it leaves `pending`, for at most `ms`. */
async function settled(served: Served, location: string, ms = 5000) {
  const until = Date.now() + ms;
  for (;;) {
    const res = await served.fetch(location);
    if (res.status !== 200) return res;
    const body = await res.clone().json();
    if (body.status !== 'pending' || Date.now() > until) return res;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describeMatrix(
  'asynchronous work: book imports (spec 4.3)',
  () => createBookshelf(quiet),
  (served) => {
    it('answers POST /v1/book-imports with 202 and the Location of a status that goes pending → done', async () => {
      const res = await served.fetch('/v1/book-imports', {
        method: 'POST',
        headers: json,
        body: JSON.stringify({
          books: [
            { title: 'The Hobbit', authorId: 'j-r-r-tolkien', year: 1937 },
            { title: 'Solaris', authorId: 'stanislaw-lem', year: 1961 },
          ],
        }),
      });
      expect(res.status).toBe(202);
      const location = res.headers.get('location')!;
      expect(location).toMatch(/^\/v1\/book-imports\/[0-9a-f-]{36}$/);
      const accepted = await res.json();
      expect(accepted).toMatchObject({ status: 'pending' });
      expect(location.endsWith(accepted.id)).toBe(true);
      const pending = await served.fetch(location);
      expect(pending.status).toBe(200);
      expect((await pending.json()).status).toBe('pending');
      expect(pending.headers.get('retry-after')).toBe('1');
      const done = await settled(served, location);
      const body = await done.json();
      expect(body.status).toBe('done');
      expect(body.result.imported).toBe(2);
      const hobbit = await served.fetch(`/v1/books/${body.result.ids[0]}`);
      expect((await hobbit.json()).title).toBe('The Hobbit');
    });

    it('reports a failed import in the status body, with the error entries (spec 7.1.5)', async () => {
      const res = await served.fetch('/v1/book-imports', {
        method: 'POST',
        headers: json,
        body: JSON.stringify({
          books: [{ title: 'Fine', authorId: 'a', year: 2000 }, { title: '' }],
        }),
      });
      expect(res.status).toBe(202);
      const body = await (await settled(served, res.headers.get('location')!)).json();
      expect(body.status).toBe('failed');
      expect(body.errors.length).toBeGreaterThan(0);
      expect(body.errors[0].message).toMatch(/^books\[1\]: /);
      expect(typeof body.errors[0].code).toBe('number');
    });

    it('answers an unknown import with 404 naming it', async () => {
      const res = await served.fetch('/v1/book-imports/00000000-0000-4000-8000-000000000000');
      expect(res.status).toBe(404);
      expect((await res.json()).errors[0].message).toContain(
        '00000000-0000-4000-8000-000000000000',
      );
    });

    it('answers a body without books with 400', async () => {
      const res = await served.fetch('/v1/book-imports', {
        method: 'POST',
        headers: json,
        body: '{}',
      });
      expect(res.status).toBe(400);
    });
  },
);

const reports = () => {
  const jobs = createJobs({ path: '/v1/report-runs' });
  return conventions({
    lint: 'off',
    logger: quiet.logger,
    plugins: [jobs],
    routes: {
      '/v1/report-runs': { POST: () => jobs.start(() => seeOther('/v1/reports/42')) },
      '/v1/crash-runs': {
        POST: () =>
          jobs.start(() => {
            throw new Error('disk full at /secret/path');
          }),
      },
      '/v1/reports/:id': { GET: (ctx) => ({ id: ctx.param('id') }) },
    },
  });
};

describeMatrix(
  'asynchronous work: 303 and failures (spec 4.3, RFC 9110 §15.4.4)',
  reports,
  (served) => {
    it('answers a finished job with 303 See Other to its result', async () => {
      const res = await served.fetch('/v1/report-runs', { method: 'POST' });
      expect(res.status).toBe(202);
      const location = res.headers.get('location')!;
      let status = await served.fetch(location);
      for (let i = 0; i < 50 && status.status === 200; i++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        status = await served.fetch(location);
      }
      expect(status.status).toBe(303);
      expect(status.headers.get('location')).toBe('/v1/reports/42');
      expect((await status.json()).status).toBe('done');
    });

    it('reports a fault without its details', async () => {
      const res = await served.fetch('/v1/crash-runs', { method: 'POST' });
      const body = await (await settled(served, res.headers.get('location')!)).json();
      expect(body.status).toBe('failed');
      expect(body.errors).toEqual([
        { message: expect.not.stringContaining('secret'), code: 50000 },
      ]);
    });
  },
);
