import { expect, it } from 'vitest';
import { createBookshelf } from '../../examples/bookshelf/app.ts';
import type { DeprecatedCall } from '../../src/index.ts';
import { describeMatrix } from './_matrix.ts';

const calls: DeprecatedCall[] = [];
const build = () =>
  createBookshelf({
    logger: { error() {}, warn() {} },
    onDeprecatedCall: (call) => calls.push(call),
  });

/** Every value of one header (fetch joins repeated lines with ", "). */
const links = (res: Response) => (res.headers.get('link') ?? '').split(/,\s*(?=<)/);

/** RFC 9745 §2.1: `@` then whole seconds since the epoch. */
const epochOf = (value: string | null) => {
  expect(value).toMatch(/^@\d+$/);
  return Number(value!.slice(1)) * 1000;
};

describeMatrix('bookshelf versions and deprecation', build, (served) => {
  it('sends Deprecation, Sunset at least 6 months later and a successor Link on /v1/authors (spec 9.8, RFC 9745, RFC 8594)', async () => {
    const res = await served.fetch('/v1/authors');
    expect(res.status).toBe(200);
    const announced = epochOf(res.headers.get('deprecation'));
    const sunset = res.headers.get('sunset')!;
    // RFC 9110 §5.6.7 IMF-fixdate
    expect(sunset).toMatch(/^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/);
    const sixMonthsLater = new Date(announced);
    sixMonthsLater.setUTCMonth(sixMonthsLater.getUTCMonth() + 6);
    expect(Date.parse(sunset)).toBeGreaterThanOrEqual(sixMonthsLater.getTime());
    // Exactly once on every host (Hono's response headers are merged, never doubled).
    expect(links(res).filter((l) => l === '</v2/authors>; rel="successor-version"')).toHaveLength(
      1,
    );
    expect(links(res).some((l) => /rel="deprecation"/.test(l))).toBe(true);
    expect(links(res).some((l) => /rel="sunset"/.test(l))).toBe(true);
    const body = await res.json();
    expect(body.authors[0]).toEqual({
      id: 'jane-austen',
      name: 'Jane Austen',
      born: 1775,
      died: 1817,
    });
  });

  it('links /v1/authors/{id} to its own successor /v2/authors/{id} (spec 9.8)', async () => {
    const res = await served.fetch('/v1/authors/mary-shelley');
    expect(res.status).toBe(200);
    expect(res.headers.get('deprecation')).toMatch(/^@\d+$/);
    expect(res.headers.get('sunset')).not.toBeNull();
    expect(links(res)).toContain('</v2/authors/mary-shelley>; rel="successor-version"');
    expect(await res.json()).toEqual({
      id: 'mary-shelley',
      name: 'Mary Shelley',
      born: 1797,
      died: 1851,
    });
  });

  it('keeps the deprecation headers on the 404 of a deprecated route (spec 7.1.3)', async () => {
    const res = await served.fetch('/v1/authors/nobody');
    expect(res.status).toBe(404);
    expect(res.headers.get('sunset')).not.toBeNull();
    expect((await res.json()).errors[0].message).toBe('No author with id "nobody".');
  });

  it('serves /v2/authors in the new format with no deprecation headers (spec 9.6, 9.7)', async () => {
    const res = await served.fetch('/v2/authors');
    expect(res.status).toBe(200);
    expect(res.headers.get('deprecation')).toBeNull();
    expect(res.headers.get('sunset')).toBeNull();
    expect(res.headers.get('link') ?? '').not.toMatch(/successor-version|deprecation|sunset/);
    const body = await res.json();
    expect(body.authors).toHaveLength(12);
    expect(body.authors[0]).toEqual({
      id: 'jane-austen',
      name: { given: 'Jane', family: 'Austen' },
      lifespan: { born: 1775, died: 1817 },
    });
    const one = await served.fetch('/v2/authors/jane-austen');
    expect(await one.json()).toEqual(body.authors[0]);
  });

  it('answers the retired /v1/reviews with 410 Gone and the error body (spec 9.8, 7.1)', async () => {
    const res = await served.fetch('/v1/reviews');
    expect(res.status).toBe(410);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const body = await res.json();
    expect(body).toEqual({
      errors: [
        {
          message: expect.stringMatching(/^GET \/v1\/reviews was retired on .+ GMT\./),
          code: 41001,
        },
      ],
    });
    expect(Date.parse(res.headers.get('sunset')!)).toBeLessThan(Date.now());
  });

  it('answers HEAD of the retired /v1/reviews with 410 and no body', async () => {
    const res = await served.fetch('/v1/reviews', { method: 'HEAD' });
    expect(res.status).toBe(410);
    expect(await res.text()).toBe('');
  });

  it('reports each call to a deprecated endpoint with its route (the hook)', async () => {
    calls.length = 0;
    await served.fetch('/v1/authors/jane-austen');
    await served.fetch('/v2/authors');
    await served.fetch('/v1/reviews');
    expect(
      calls.map(({ method, route, path, status }) => ({ method, route, path, status })),
    ).toEqual([
      { method: 'GET', route: '/v1/authors/:id', path: '/v1/authors/jane-austen', status: 200 },
      { method: 'GET', route: '/v1/reviews', path: '/v1/reviews', status: 410 },
    ]);
    // Once the bookshelf asks for tokens, the caller is known.
    const expected = (await served.authorization()) === undefined ? undefined : 'alice';
    expect(calls[0]!.identity?.subject).toBe(expected);
  });
});
