import { describe, expect, it, vi } from 'vitest';
import { type ApiResponse, bindHost, type RequestInput } from '../../src/host.ts';
import {
  type ConventionsOptions,
  conventions,
  type Logger,
  ok,
  type Plugin,
} from '../../src/index.ts';
import { checkAlwaysOn } from './_always-on-check.ts';
import { expectWithoutCodegen } from './_without-codegen.ts';

function fakeLogger() {
  return { error: vi.fn<Logger['error']>(), warn: vi.fn<NonNullable<Logger['warn']>>() };
}

const book = { id: 'dune', title: 'Dune' };
const routes = {
  '/v1/books': { GET: () => book, POST: () => ok(book) },
  '/v1/crashes': {
    GET: () => {
      throw new Error('secret');
    },
  },
};

const make = (plugins: Plugin[], options: ConventionsOptions = {}) =>
  conventions({ lint: 'off', logger: fakeLogger(), routes, plugins, ...options });

const send = async (api: ReturnType<typeof make>, method: string, url: string) =>
  api.handle({ method, url, headers: new Headers() });

/** Chooses the media type of every response in the transform phase. */
const asType = (type: string): Plugin => ({
  name: `as ${type}`,
  preSerialization(_ctx, out) {
    out.type = type;
  },
});

const xml: Plugin = {
  name: 'xml',
  serializers: {
    'application/xml': (value) =>
      `<value>${Object.entries(value as object)
        .map(([k, v]) => `<${k}>${String(v)}</${k}>`)
        .join('')}</value>`,
  },
};

describe('serializers', () => {
  it('serializes a vendor +json type with the built-in JSON serializer (RFC 6839 §3)', async () => {
    const response = await send(
      make([asType('application/vnd.acme.book+json')]),
      'GET',
      '/v1/books',
    );
    expect(response).toMatchObject({
      status: 200,
      headers: { 'content-type': 'application/vnd.acme.book+json' },
      body: JSON.stringify(book),
    });
  });

  it('serializes application/xml with the serializer a plugin registers', async () => {
    const response = await send(make([xml, asType('application/xml')]), 'GET', '/v1/books');
    expect(response).toMatchObject({
      status: 200,
      headers: { 'content-type': 'application/xml' },
      body: '<value><id>dune</id><title>Dune</title></value>',
    });
  });

  it('serializes a vendor +xml type with the application/xml serializer', async () => {
    const response = await send(
      make([xml, asType('application/vnd.acme.book+xml')]),
      'GET',
      '/v1/books',
    );
    expect(response.headers['content-type']).toBe('application/vnd.acme.book+xml');
    expect(response.body).toBe('<value><id>dune</id><title>Dune</title></value>');
  });

  it('answers a type no serializer handles with a logged 500, as JSON', async () => {
    const api = make([asType('text/csv')]);
    const response = await send(api, 'GET', '/v1/books');
    expect(response.status).toBe(500);
    expect(response.headers['content-type']).toBe('application/json');
    expect(JSON.parse(response.body as string).errors[0].code).toBe(50000);
  });

  it('answers a serializer that throws with the error body as JSON', async () => {
    const broken: Plugin = {
      name: 'broken',
      serializers: {
        'application/xml': () => {
          throw new Error('cannot');
        },
      },
    };
    const response = await send(make([broken, asType('application/xml')]), 'GET', '/v1/books');
    expect(response.status).toBe(500);
    expect(response.headers['content-type']).toBe('application/json');
    expect(JSON.parse(response.body as string).errors[0].code).toBe(50000);
  });

  it('refuses two plugins serializing one media type, and a serializer that is not a function', () => {
    expect(() => make([xml, { ...xml, name: 'xml-2' }])).toThrow(
      new TypeError('Plugin "xml-2": another plugin already serializes application/xml.'),
    );
    expect(() => make([{ name: 'bad', serializers: { 'text/csv': 'csv' as never } }])).toThrow(
      new TypeError('Plugin "bad": the serializer for text/csv must be a function.'),
    );
  });
});

describe('always-on headers', () => {
  const frames: Plugin = { name: 'frames', headers: { 'X-Frame-Options': 'DENY' } };
  const expected = { 'x-frame-options': 'DENY', 'x-content-type-options': 'nosniff' };

  it.each([
    ['a success', 'GET', '/v1/books', 200],
    ['a 404', 'GET', '/v1/nothing', 404],
    ['an upper-case path', 'GET', '/v1/Books', 404],
    ['a 405', 'DELETE', '/v1/books', 405],
    ['an OPTIONS answer', 'OPTIONS', '/v1/books', 204],
    ['an error', 'GET', '/v1/crashes', 500],
    ['HEAD', 'HEAD', '/v1/books', 200],
  ])('adds a plugin’s always-on headers to %s', async (_, method, url, status) => {
    const response = await send(make([frames]), method, url);
    expect(response.status).toBe(status);
    expect(response.headers).toMatchObject(expected);
  });

  it('exposes them, with nosniff, as the host binding’s alwaysOnHeaders', () => {
    const host = bindHost<RequestInput>(make([frames]), { input: (input) => input });
    expect(host.alwaysOnHeaders).toEqual(expected);
  });

  it('leaves a header the response already has as it is', async () => {
    const api = make([frames], {
      routes: { '/v1/embeds': { GET: () => ok({}, { 'x-frame-options': 'SAMEORIGIN' }) } },
    });
    expect((await send(api, 'GET', '/v1/embeds')).headers['x-frame-options']).toBe('SAMEORIGIN');
  });

  it('gives each of two services answered in turn its own, never over the response’s', async () => {
    // Node compiles code: each service's fill is a generated function.
    expect(await checkAlwaysOn()).toBe(12);
  });

  it('does the same where code cannot be compiled, as on Workers', () => {
    expectWithoutCodegen(
      new URL('./_always-on-check.ts', import.meta.url),
      'always-on ok: 12 responses (compilesCode: false)',
    );
  });

  it('refuses an always-on header that cannot be sent, at start-up', () => {
    expect(() => make([{ name: 'bad', headers: { 'x-a': 'a\r\nb' } }])).toThrow(TypeError);
    expect(() => make([{ name: 'bad', headers: { 'bad name': 'x' } }])).toThrow(TypeError);
  });
});

describe('a hook that throws', () => {
  const frames: Plugin = { name: 'frames', headers: { 'X-Frame-Options': 'DENY' } };
  const phases = ['onRequest', 'preParsing', 'preHandler', 'preSerialization', 'onSend'] as const;

  it.each(phases)(
    'in %s still yields a logged 500 with the always-on and the context’s headers',
    async (phase) => {
      const logger = fakeLogger();
      const failing: Plugin = {
        name: 'failing',
        onRequest(ctx) {
          ctx.responseHeaders.set('x-ratelimit-remaining', '9').vary('Origin');
          if (phase === 'onRequest') throw new Error('boom');
        },
        [phase === 'onRequest' ? 'onSend' : phase]: () => {
          if (phase !== 'onRequest') throw new Error('boom');
        },
      };
      const api = make([frames, failing], { logger });
      const response = await send(api, 'POST', '/v1/books');
      expect(response).toEqual({
        status: 500,
        headers: {
          'x-ratelimit-remaining': '9',
          vary: 'Origin',
          'content-type': 'application/json',
          'x-content-type-options': 'nosniff',
          'x-frame-options': 'DENY',
        },
        body: JSON.stringify({
          errors: [
            { message: 'Something went wrong on our side; it has been logged.', code: 50000 },
          ],
        }),
      });
      expect(logger.error).toHaveBeenCalledOnce();
      expect(logger.error.mock.calls[0]![0]).toMatchObject({ err: { message: 'boom' } });
    },
  );

  it('never hands a reply’s own headers to the error response', async () => {
    const failing: Plugin = {
      name: 'failing',
      preSerialization() {
        throw new Error('boom');
      },
    };
    const api = make([failing], {
      routes: {
        '/v1/books': { GET: () => ok(book, { etag: '"v1"', 'cache-control': 'max-age=60' }) },
      },
    });
    const response = await send(api, 'GET', '/v1/books');
    expect(response.status).toBe(500);
    expect(response.headers.etag).toBeUndefined();
    expect(response.headers['cache-control']).toBeUndefined();
  });

  it('in an async onSend still yields the 500 with the always-on headers', async () => {
    const failing: Plugin = { name: 'failing', onSend: () => Promise.reject(new Error('boom')) };
    const response = await send(make([frames, failing]), 'GET', '/v1/books');
    expect(response.status).toBe(500);
    expect(response.headers['x-frame-options']).toBe('DENY');
  });
});

describe('HEAD and the send phase (RFC 9110 §9.3.2)', () => {
  it('drops the body after onSend saw it, with the Content-Length and onSend’s headers of GET', async () => {
    const seen: (string | Uint8Array | null)[] = [];
    const etag: Plugin = {
      name: 'etag',
      onSend(_ctx, sent) {
        seen.push(sent.body);
        sent.headers.set('etag', `"${String(sent.body).length}"`);
      },
    };
    const api = make([etag]);
    const get = (await send(api, 'GET', '/v1/books')) as ApiResponse;
    const head = (await send(api, 'HEAD', '/v1/books')) as ApiResponse;
    expect(seen).toEqual([get.body, get.body]);
    expect(head).toEqual({
      status: 200,
      headers: { ...get.headers, 'content-length': String(Buffer.byteLength(get.body as string)) },
      body: null,
    });
    expect(head.headers.etag).toBe(get.headers.etag);
  });

  it('keeps the status an onSend hook set, such as a 304, with no body', async () => {
    const notModified: Plugin = {
      name: 'not-modified',
      onSend(_ctx, sent) {
        sent.status = 304;
        sent.body = null;
      },
    };
    const response = await send(make([notModified]), 'HEAD', '/v1/books');
    expect(response.status).toBe(304);
    expect(response.body).toBeNull();
    expect(response.headers['content-length']).toBeUndefined();
  });
});
