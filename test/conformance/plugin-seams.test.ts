/**
 * One plugin that uses every seam (pre-routing answer and Vary, identity, a contributed route, a
 * transform, a serializer, a send-phase header, a store, always-on headers) gives the same
 * answers on every host, for the route table and for the framework's own routes beside it.
 */
import { expect, it } from 'vitest';
import { describeSeams } from './_seams-hosts.ts';

const allow = 'GET, HEAD, OPTIONS';

/** The body as text, and parsed when it is JSON. */
async function read(res: Response): Promise<{ text: string; body: unknown }> {
  const text = await res.text();
  const json = res.headers.get('content-type')?.startsWith('application/json') && text !== '';
  return { text, body: json ? JSON.parse(text) : undefined };
}

/**
 * What every answer of the seams API carries, whatever produced it: the plugin's always-on
 * header, the pre-routing hook's `Vary`, the built-in nosniff, and the send phase's byte count
 * of the body that really went out.
 */
function expectSeamed(res: Response, text: string): void {
  expect(res.headers.get('x-seams')).toBe('on');
  expect(res.headers.get('vary')).toBe('Origin');
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  expect(res.headers.get('x-body-length')).toBe(String(Buffer.byteLength(text)));
}

const error = (code: number, message: string) => ({ errors: [{ message, code }] });

describeSeams('plugin seams on the route table', (served) => {
  const as = (user: string, init: RequestInit = {}) => ({ ...init, headers: { 'x-user': user } });

  it('gives a table handler the identity set before routing, and runs the transform and send phases', async () => {
    const res = await served.fetch('/v1/whoami', as('ada'));
    const { text, body } = await read(res);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(body).toEqual({ subject: 'ada', via: 'x-user', servedTo: 'ada' });
    expect(res.headers.get('content-length')).toBe(String(Buffer.byteLength(text)));
    expect(res.headers.get('x-request-count')).toBe('1');
    expectSeamed(res, text);
  });

  it('counts requests per identity in a MemoryStore, contributed route included', async () => {
    const counts: (string | null)[] = [];
    for (const user of ['bea', 'bea', 'cy']) {
      counts.push((await served.fetch('/v1/whoami', as(user))).headers.get('x-request-count'));
    }
    expect(counts).toEqual(['1', '2', '1']);
    const res = await served.fetch('/v1/plugin-status', as('bea'));
    const { text, body } = await read(res);
    expect(res.status).toBe(200);
    // preParsing ran before the handler, so the count includes this request.
    expect(body).toEqual({ plugin: 'seams', requests: 3, servedTo: 'bea' });
    expect(res.headers.get('x-request-count')).toBe('3');
    expectSeamed(res, text);
    expect(served.seams.store.get('hits:bea')).toBe('3');
    expect(served.seams.store.get('hits:cy')).toBe('1');
  });

  it('serializes with the plugin’s text/csv serializer when the transform picks it', async () => {
    const res = await served.fetch('/v1/whoami?format=csv', as('dee'));
    const { text } = await read(res);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv');
    expect(text).toBe('subject,via,servedTo\ndee,x-user,dee\n');
    expectSeamed(res, text);
  });

  it.each(['GET', 'POST', 'DELETE'])(
    'answers %s /v1/teapots in the pre-routing phase, before 404 or 405, with no route hook run',
    async (method) => {
      const res = await served.fetch('/v1/teapots', as('eve', { method }));
      const { text, body } = await read(res);
      expect(res.status).toBe(410);
      expect(body).toEqual(error(41000, 'Teapots were retired; brew elsewhere.'));
      expect(res.headers.has('x-request-count')).toBe(false);
      expectSeamed(res, text);
    },
  );

  it('answers an unknown path 404 with every seam header and an untransformed error body', async () => {
    const res = await served.fetch('/v1/nothing-here', as('fay'));
    const { text, body } = await read(res);
    expect(res.status).toBe(404);
    expect(body).toEqual(error(40401, 'Nothing found at /v1/nothing-here.'));
    expectSeamed(res, text);
  });

  it.each(['/v1/whoami', '/v1/plugin-status'])(
    'answers DELETE %s 405 with Allow and every seam header (RFC 9110 §15.5.6)',
    async (path) => {
      const res = await served.fetch(path, { method: 'DELETE' });
      const { text, body } = await read(res);
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe(allow);
      expect(body).toEqual(error(40500, `DELETE is not allowed on ${path}; allowed: ${allow}.`));
      expectSeamed(res, text);
    },
  );

  it('answers OPTIONS 204 with Allow, the seam headers and a byte count of 0 (RFC 9110 §9.3.7)', async () => {
    const res = await served.fetch('/v1/plugin-status', { method: 'OPTIONS' });
    const { text } = await read(res);
    expect(res.status).toBe(204);
    expect(res.headers.get('allow')).toBe(allow);
    expect(text).toBe('');
    expectSeamed(res, '');
  });

  it('answers an upper-case path 404 with every seam header (spec 4.1.3)', async () => {
    const res = await served.fetch('/v1/WhoAmI', as('gus'));
    const { text, body } = await read(res);
    expect(res.status).toBe(404);
    expect(body).toEqual(
      error(40402, 'Nothing found at /v1/WhoAmI: paths are entirely lower-case.'),
    );
    expectSeamed(res, text);
  });

  it('keeps the always-on header, Vary and the store count on the 500 of a thrown error', async () => {
    const res = await served.fetch('/v1/failures', as('hal'));
    const { text, body } = await read(res);
    expect(res.status).toBe(500);
    expect(body).toEqual(error(50000, 'Something went wrong on our side; it has been logged.'));
    expect(res.headers.get('x-request-count')).toBe('1');
    expectSeamed(res, text);
    expect(served.seams.faults).toContainEqual(new Error('the seams suite failed on purpose'));
  });

  it('answers HEAD with GET’s headers and lengths and no body (RFC 9110 §9.3.2)', async () => {
    const get = await served.fetch('/v1/whoami', as('ivy'));
    const length = String(Buffer.byteLength(await get.text()));
    const head = await served.fetch('/v1/whoami', as('ivy', { method: 'HEAD' }));
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    expect(head.headers.get('content-type')).toBe('application/json');
    expect(head.headers.get('content-length')).toBe(length);
    expect(head.headers.get('x-body-length')).toBe(length);
    expect(head.headers.get('x-request-count')).toBe('2');
    expect(head.headers.get('x-seams')).toBe('on');
    expect(head.headers.get('vary')).toBe('Origin');
  });
});
