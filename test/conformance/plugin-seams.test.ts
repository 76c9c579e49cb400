/**
 * One plugin that uses every seam (pre-routing answer and Vary, identity, a contributed route, a
 * transform, a serializer, a send-phase header, a store, always-on headers) gives the same
 * answers on every host, for the route table and for the framework's own routes beside it.
 */
import { expect, it } from 'vitest';
import { describeSeams, type SeamsServed } from './_seams-hosts.ts';
import type { HookCalls } from './_seams-plugin.ts';

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

/** How many times each hook ran for one request: the plugin's counts after it minus before. */
async function hookRuns(served: SeamsServed, path: string, method = 'GET'): Promise<HookCalls> {
  const before = { ...served.seams.calls };
  await (await served.fetch(path, { method })).arrayBuffer();
  const { calls } = served.seams;
  return {
    onRequest: calls.onRequest - before.onRequest,
    preParsing: calls.preParsing - before.preParsing,
    preSerialization: calls.preSerialization - before.preSerialization,
    onSend: calls.onSend - before.onSend,
  };
}

/** Hook runs as `[onRequest, preParsing, preSerialization, onSend]`. */
const runs = ([onRequest, preParsing, preSerialization, onSend]: number[]): HookCalls => ({
  onRequest: onRequest!,
  preParsing: preParsing!,
  preSerialization: preSerialization!,
  onSend: onSend!,
});

/** Request options as the caller `user`: the plugin reads its identity from `x-user`. */
const as = (user: string, init: RequestInit = {}) => ({ ...init, headers: { 'x-user': user } });

describeSeams('plugin seams on the route table', (served) => {
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

  it.each([
    ['GET', '/v1/whoami', [1, 1, 1, 1]],
    ['HEAD', '/v1/whoami', [1, 1, 1, 1]],
    ['GET', '/v1/plugin-status', [1, 1, 1, 1]],
    ['GET', '/v1/failures', [1, 1, 1, 1]],
    ['GET', '/v1/teapots', [1, 0, 1, 1]],
    ['GET', '/v1/nothing-here', [1, 0, 1, 1]],
    ['DELETE', '/v1/whoami', [1, 0, 1, 1]],
    ['OPTIONS', '/v1/whoami', [1, 0, 1, 1]],
    ['GET', '/v1/WhoAmI', [1, 0, 1, 1]],
  ])(
    'runs pre-routing and the response phases once for %s %s, preParsing only on a matched route',
    async (method, path, expected) => {
      expect(await hookRuns(served, path, method)).toEqual(runs(expected));
    },
  );
});

// Every host with a router of its own: Express 5 and 4 (`before`, `c.guard`, `after`), Fastify
// (the plugin and `config.conventions`), Hono (`toFetchMiddleware` before its routes, the handler
// with `routes: () => app.routes` after them).
describeSeams(
  'plugin seams around native routes',
  (served) => {
    it('answers a native route’s path in the pre-routing phase when a hook says so', async () => {
      const res = await served.fetch('/v1/teapots', as('pat'));
      const { text, body } = await read(res);
      expect(res.status).toBe(410);
      expect(body).toEqual(error(41000, 'Teapots were retired; brew elsewhere.'));
      expectSeamed(res, text);
    });

    it('adds the always-on headers to a native route’s answer', async () => {
      const res = await served.fetch('/v1/native-plain');
      expect(res.status).toBe(200);
      expect(res.headers.get('x-seams')).toBe('on');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    });

    it('keeps the headers a pre-routing hook added on a native route’s answer', async () => {
      const res = await served.fetch('/v1/native-plain');
      expect(res.status).toBe(200);
      expect(res.headers.get('vary')).toBe('Origin');
    });

    it('answers DELETE on a native route 405 with Allow and every seam header', async () => {
      const res = await served.fetch('/v1/native-things', { method: 'DELETE' });
      const { text, body } = await read(res);
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe(allow);
      expect(body).toEqual(
        error(40500, `DELETE is not allowed on /v1/native-things; allowed: ${allow}.`),
      );
      expectSeamed(res, text);
    });

    it('answers OPTIONS on a native route 204 with Allow and every seam header', async () => {
      const res = await served.fetch('/v1/native-things', { method: 'OPTIONS' });
      expect(res.status).toBe(204);
      expect(res.headers.get('allow')).toBe(allow);
      expectSeamed(res, await res.text());
    });

    it('answers a native route’s path in upper case 404 (spec 4.1.3)', async () => {
      const res = await served.fetch('/v1/Native-Things');
      const { text, body } = await read(res);
      expect(res.status).toBe(404);
      expect(body).toEqual(
        error(40402, 'Nothing found at /v1/Native-Things: paths are entirely lower-case.'),
      );
      expectSeamed(res, text);
    });

    // A native Hono route's Response is finished bytes: the response phases do not reach it. The
    // checks reach every app route, guarded or not: the route view holds them all.
    const phases = served.adapter === 'fetch' ? 0 : 1;
    it.each([
      ['GET', '/v1/native-things', [1, 1, phases, phases]],
      ['GET', '/v1/native-plain', [1, 1, phases, phases]],
      ['GET', '/v1/teapots', [1, 0, 1, 1]],
      ['DELETE', '/v1/native-things', [1, 0, 1, 1]],
      ['OPTIONS', '/v1/native-things', [1, 0, 1, 1]],
      ['GET', '/v1/Native-Things', [1, 0, 1, 1]],
    ])(
      'runs each phase that reaches %s %s once, beside native routes',
      async (method, path, expected) => {
        expect(await hookRuns(served, path, method)).toEqual(runs(expected));
      },
    );
  },
  ['express', 'express4', 'fastify', 'fetch', 'koa'],
);

// Express's `res.json(value)` and Fastify's returned value go through the response phases; a
// route guarded by `c.guard(...)` or `config.conventions` also runs preParsing and preHandler.
describeSeams(
  'plugin seams in the response phases of native routes',
  (served) => {
    const thing = { thing: 'native', host: served.adapter };

    it('sends a guarded native route’s value through the transform, serialize and send phases once', async () => {
      const res = await served.fetch('/v1/native-things', as('jo'));
      const { text, body } = await read(res);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/json');
      expect(body).toEqual({ ...thing, servedTo: 'jo' });
      expect(res.headers.get('content-length')).toBe(String(Buffer.byteLength(text)));
      expect(res.headers.get('x-request-count')).toBe('1');
      expectSeamed(res, text);
    });

    it('serializes a native route’s value with the serializer the transform picks', async () => {
      const res = await served.fetch('/v1/native-things?format=csv', as('kit'));
      const { text } = await read(res);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/csv');
      expect(text).toBe(`thing,host,servedTo\nnative,${served.adapter},kit\n`);
      expectSeamed(res, text);
    });

    it('runs every seam, the checks included, on a native route without a guard', async () => {
      const res = await served.fetch('/v1/native-plain', as('lu'));
      const { text, body } = await read(res);
      expect(res.status).toBe(200);
      expect(body).toEqual({ ...thing, servedTo: 'lu' });
      expect(res.headers.get('x-request-count')).toBe('1');
      expect(served.seams.store.get('hits:lu')).toBe('1');
      expectSeamed(res, text);
    });

    it('runs the guard’s route hooks on HEAD of a guarded native route', async () => {
      const res = await served.fetch('/v1/native-things', as('mo', { method: 'HEAD' }));
      expect(res.status).toBe(200);
      expect(res.headers.get('x-request-count')).toBe('1');
      expect(served.seams.store.get('hits:mo')).toBe('1');
    });

    it('answers HEAD of a native route with GET’s Content-Length (RFC 9110 §9.3.2)', async () => {
      const get = await served.fetch('/v1/native-plain', as('ned'));
      const length = get.headers.get('content-length');
      expect(length).toBe(String(Buffer.byteLength(await get.text())));
      const head = await served.fetch('/v1/native-plain', as('ned', { method: 'HEAD' }));
      expect(head.status).toBe(200);
      expect(await head.text()).toBe('');
      expect(head.headers.get('content-length')).toBe(length);
      expect(head.headers.get('x-body-length')).toBe(length);
      expect(head.headers.get('x-seams')).toBe('on');
      expect(head.headers.get('vary')).toBe('Origin');
    });

    it('answers a native route’s thrown error 500 with the spec’s body and every seam header', async () => {
      const res = await served.fetch('/v1/native-failures', as('oz'));
      const { text, body } = await read(res);
      expect(res.status).toBe(500);
      expect(body).toEqual(error(50000, 'Something went wrong on our side; it has been logged.'));
      expectSeamed(res, text);
      expect(served.seams.faults).toContainEqual(new Error('a native route failed on purpose'));
    });
  },
  ['express', 'express4', 'fastify'],
);

// A native Hono route returns a finished Response: the middleware adds the always-on headers to
// it, and nothing else of the pipeline reaches it.
describeSeams(
  'plugin seams beside native Hono routes',
  (served) => {
    it('leaves a native Hono route’s body, type and length to Hono (no transform, serializer or send phase), and runs its checks', async () => {
      const res = await served.fetch('/v1/native-things?format=csv', as('pia'));
      const { body } = await read(res);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/json');
      expect(body).toEqual({ thing: 'native', host: 'fetch' });
      expect(res.headers.has('x-body-length')).toBe(false);
      expect(res.headers.get('x-request-count')).toBe('1');
      expect(served.seams.store.get('hits:pia')).toBe('1');
    });

    it('answers a native Hono route’s thrown error with the spec’s 500 through app.onError, logged by the conventions (spec 7.2)', async () => {
      const res = await served.fetch('/v1/native-failures');
      expect(res.status).toBe(500);
      expect(res.headers.get('content-type')).toBe('application/json');
      expect(res.headers.get('x-seams')).toBe('on');
      const body = await res.json();
      expect(body.errors[0].code).toBe(50000);
      expect(JSON.stringify(body)).not.toContain('on purpose');
      expect(served.seams.faults.length).toBe(1);
    });
  },
  ['fetch'],
);
