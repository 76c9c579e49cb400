/**
 * Companions that double up: the packages an app already has for what the
 * library also does — a rate limiter, security headers, authentication, uploads, compression —
 * either answer in the spec's terms beside it, or the library names them at start-up with what to
 * keep. Real packages on real servers on port 0.
 */
import { createServer } from 'node:http';
import fastifyCompress from '@fastify/compress';
import fastifyHelmet from '@fastify/helmet';
import fastifyJwt from '@fastify/jwt';
import fastifyMultipart from '@fastify/multipart';
import fastifyRateLimit from '@fastify/rate-limit';
import { caching, ErrorCode, rateLimit, securityHeaders } from 'api-conventions';
import { toExpressMiddleware } from 'api-conventions/express';
import { serverOptions, toFastifyPlugin } from 'api-conventions/fastify';
import compression from 'compression';
import express from 'express';
import { rateLimit as expressRateLimit } from 'express-rate-limit';
import Fastify from 'fastify';
import { compress as honoCompress } from 'hono/compress';
import { jwt } from 'hono/jwt';
import { secureHeaders } from 'hono/secure-headers';
import { rateLimiter as honoRateLimiter } from 'hono-rate-limiter';
import multer from 'multer';
import passport from 'passport';
import { Strategy as BearerStrategy } from 'passport-http-bearer';
import { afterEach, describe, expect, it } from 'vitest';
import {
  closeRunning,
  errorsOf,
  service,
  start,
  startFastify,
  startHono,
} from './_companion-apps.ts';

afterEach(closeRunning);

/**
 * Asks `url` without a token and with `forged`: each is 401 with the challenge expected (RFC 6750
 * §3) and the spec's error body (spec 7.1.5), code 40100 then 40101 (spec 5.6).
 */
async function expectChallenges(
  url: string,
  forged: string,
  challenges: readonly [anonymous: string | RegExp, refused: string | RegExp],
) {
  const asked = [await fetch(url), await fetch(url, { headers: { authorization: forged } })];
  const codes = [ErrorCode.Unauthorized, ErrorCode.InvalidToken];
  for (const [i, res] of asked.entries()) {
    expect(res.status).toBe(401);
    const expected = challenges[i]!;
    const challenge = res.headers.get('www-authenticate');
    if (typeof expected === 'string') expect(challenge).toBe(expected);
    else expect(challenge).toMatch(expected);
    expect((await errorsOf(res))[0]!.code).toBe(codes[i]);
  }
}

describe('authentication companions: 401 with a challenge and the error body', () => {
  it('keeps passport’s Bearer challenge on its 401 (spec 5.8, RFC 6750 §3, spec 7.1.5)', async () => {
    const { api } = service();
    passport.use(
      new BearerStrategy((token, done) =>
        token === 'good' ? done(null, { id: 'alice' }) : done(null, false, 'invalid_token'),
      ),
    );
    const c = toExpressMiddleware(api);
    const app = express();
    app.use(c.before);
    app.get(
      '/v1/me',
      passport.authenticate('bearer', { session: false, failWithError: true }),
      (req, res) => {
        res.json({ id: (req.user as { id: string }).id });
      },
    );
    app.use(c.after);
    const base = await start(createServer(app));
    await expectChallenges(`${base}/v1/me`, 'Bearer nope', [
      'Bearer realm="Users"',
      /^Bearer realm="Users", error="invalid_token"/,
    ]);
    const good = await fetch(`${base}/v1/me`, { headers: { authorization: 'Bearer good' } });
    expect(await good.json()).toEqual({ id: 'alice' });
  });

  it('names passport’s own plain 401 once, with failWithError: true as the fix (spec 7.1)', async () => {
    const { api, warnings } = service();
    passport.use(
      new BearerStrategy((token, done) =>
        token === 'good' ? done(null, { id: 'alice' }) : done(null, false),
      ),
    );
    const c = toExpressMiddleware(api);
    const app = express();
    app.use(c.before);
    app.get('/v1/me', passport.authenticate('bearer', { session: false }), (req, res) => {
      res.json({ id: (req.user as { id: string }).id });
    });
    app.use(c.after);
    const base = await start(createServer(app));
    const named = () => warnings.filter((w) => w.includes('failWithError: true'));
    const good = await fetch(`${base}/v1/me`, { headers: { authorization: 'Bearer good' } });
    expect(good.status).toBe(200);
    expect(named()).toEqual([]);
    for (let i = 0; i < 2; i++) {
      const refused = await fetch(`${base}/v1/me`, { headers: { authorization: 'Bearer nope' } });
      expect(refused.status).toBe(401);
      await refused.text();
    }
    expect(named()).toHaveLength(1);
  });

  it('gives @fastify/jwt’s 401 the Bearer challenge, invalid_token for a bad token (spec 5.6, RFC 6750 §3)', async () => {
    const { api } = service();
    const app = Fastify({ ...serverOptions });
    await app.register(toFastifyPlugin(api));
    await app.register(fastifyJwt, { secret: 'a-secret-of-thirty-two-characters!' });
    app.get('/v1/me', { onRequest: [(request) => request.jwtVerify()] }, async (request) => ({
      id: (request.user as { sub: string }).sub,
    }));
    const base = await startFastify(app);
    await expectChallenges(`${base}/v1/me`, 'Bearer a.b.c', [
      'Bearer',
      'Bearer error="invalid_token"',
    ]);
    const token = app.jwt.sign({ sub: 'alice' });
    const good = await fetch(`${base}/v1/me`, { headers: { authorization: `Bearer ${token}` } });
    expect(await good.json()).toEqual({ id: 'alice' });
  });

  it('keeps hono/jwt’s challenge on its 401 (spec 5.6, RFC 6750 §3, spec 7.1.5)', async () => {
    const { api } = service();
    const base = await startHono(api, (app) => {
      app.use('/v1/*', jwt({ secret: 'a-secret', alg: 'HS256' }));
      app.get('/v1/me', (c) => c.json({ id: (c.get('jwtPayload') as { sub: string }).sub }));
    });
    await expectChallenges(`${base}/v1/me`, 'Bearer a.b.c', [
      /^Bearer realm=/,
      /error="invalid_token"/,
    ]);
  });
});

/** A multipart body with one file of `size` bytes in the field `file`. */
function upload(size: number): FormData {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(size).fill(97)]), 'a.txt');
  return form;
}

describe('upload companions: limits are 413 with the error body', () => {
  it('answers multer’s file-size limit with 413 (spec 7.2, RFC 9110 §15.5.14)', async () => {
    const { api } = service();
    const c = toExpressMiddleware(api);
    const app = express();
    app.use(c.before);
    const files = multer({ limits: { fileSize: 16 } });
    app.post('/v1/uploads', files.single('file'), (req, res) => {
      res.status(201).json({ size: req.file?.size });
    });
    app.use(c.after);
    const base = await start(createServer(app));
    const small = await fetch(`${base}/v1/uploads`, { method: 'POST', body: upload(8) });
    expect(small.status).toBe(201);
    expect(await small.json()).toEqual({ size: 8 });
    const large = await fetch(`${base}/v1/uploads`, { method: 'POST', body: upload(64) });
    expect(large.status).toBe(413);
    const [entry] = await errorsOf(large);
    expect(entry).toEqual({
      message: 'The file in the field "file" is larger than the limit.',
      code: ErrorCode.PayloadTooLarge,
    });
  });

  it('answers @fastify/multipart’s file-size limit with 413 (spec 7.2, RFC 9110 §15.5.14)', async () => {
    const { api } = service();
    const app = Fastify({ ...serverOptions });
    await app.register(toFastifyPlugin(api));
    await app.register(fastifyMultipart, { limits: { fileSize: 16 } });
    app.post('/v1/uploads', async (request, reply) => {
      const file = await request.file();
      const bytes = await file!.toBuffer();
      reply.code(201);
      return { size: bytes.length };
    });
    const base = await startFastify(app);
    const small = await fetch(`${base}/v1/uploads`, { method: 'POST', body: upload(8) });
    expect(small.status).toBe(201);
    const large = await fetch(`${base}/v1/uploads`, { method: 'POST', body: upload(64) });
    expect(large.status).toBe(413);
    const [entry] = await errorsOf(large);
    expect(entry).toEqual({
      message: 'A file of the upload is larger than the limit.',
      code: ErrorCode.PayloadTooLarge,
    });
  });
});

describe('Hono’s own body reader', () => {
  it('answers malformed JSON read by c.req.json() with 400 and code 40001 (spec 7.1.4)', async () => {
    const { api } = service();
    const base = await startHono(api, (app) => {
      app.post('/v1/notes', async (c) => c.json(await c.req.json(), 201));
    });
    const post = (body: string) =>
      fetch(`${base}/v1/notes`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
    expect((await post('{"text":"hi"}')).status).toBe(201);
    const bad = await post('{"text":');
    expect(bad.status).toBe(400);
    expect((await errorsOf(bad))[0]!.code).toBe(ErrorCode.MalformedBody);
  });
});

describe('a second rate limiter is named with what to keep', () => {
  const ours = () => rateLimit({ policies: [{ limit: 100, window: 60 }] });
  const named = (name: string) =>
    new RegExp(`${name} counts requests beside the conventions' rateLimit\\(\\)`);

  it('names express-rate-limit at the app’s first request, and says nothing without rateLimit() (spec 8.1)', async () => {
    for (const plugins of [[ours()], []]) {
      const { api, warnings } = service(plugins);
      const c = toExpressMiddleware(api);
      const app = express();
      app.use(expressRateLimit({ windowMs: 60_000, limit: 100 }));
      app.use(c.before);
      app.get('/v1/orders', (_req, res) => {
        res.json({ orders: [], hasNext: false });
      });
      app.use(c.after);
      const base = await start(createServer(app));
      expect((await fetch(`${base}/v1/orders`)).status).toBe(200);
      const found = warnings.filter((w) => named('express-rate-limit').test(w));
      expect(found).toHaveLength(plugins.length);
      await closeRunning();
    }
  });

  it('names express-rate-limit on a route too (spec 8.1)', async () => {
    const { api, warnings } = service([ours()]);
    const c = toExpressMiddleware(api);
    const app = express();
    app.use(c.before);
    app.get('/v1/orders', expressRateLimit({ windowMs: 60_000, limit: 100 }), (_req, res) => {
      res.json({ orders: [], hasNext: false });
    });
    app.use(c.after);
    const base = await start(createServer(app));
    await fetch(`${base}/v1/orders`);
    expect(warnings.filter((w) => w.includes('rateLimit()'))).toEqual([
      expect.stringMatching(named('express-rate-limit')),
    ]);
  });

  it('names @fastify/rate-limit at start-up (spec 8.1)', async () => {
    const { api, warnings } = service([ours()]);
    const app = Fastify({ ...serverOptions });
    await app.register(toFastifyPlugin(api));
    await app.register(fastifyRateLimit, { max: 100, timeWindow: 60_000 });
    app.get('/v1/orders', async () => ({ orders: [], hasNext: false }));
    await app.ready();
    expect(warnings).toEqual([expect.stringMatching(named('@fastify/rate-limit'))]);
    await app.close();
  });

  it('names hono-rate-limiter at the first request it counts (spec 8.1)', async () => {
    const { api, warnings } = service([ours()]);
    const base = await startHono(
      api,
      (app) => app.get('/v1/orders', (c) => c.json({ orders: [], hasNext: false })),
      (app) => app.use(honoRateLimiter({ windowMs: 60_000, limit: 100, keyGenerator: () => 'k' })),
    );
    expect((await fetch(`${base}/v1/orders`)).status).toBe(200);
    await fetch(`${base}/v1/orders`);
    expect(warnings.filter((w) => w.includes('rateLimit()'))).toEqual([
      expect.stringMatching(named('hono-rate-limiter')),
    ]);
  });
});

describe('a second set of security headers is named with what to keep', () => {
  it('names @fastify/helmet at start-up; the conventions’ values are sent (spec 4.8)', async () => {
    const { api, warnings } = service([securityHeaders()]);
    const app = Fastify({ ...serverOptions });
    await app.register(fastifyHelmet);
    await app.register(toFastifyPlugin(api));
    app.get('/v1/orders', async () => ({ orders: [], hasNext: false }));
    const base = await startFastify(app);
    expect(warnings).toEqual([
      expect.stringMatching(/^@fastify\/helmet sets security headers beside/),
    ]);
    const res = await fetch(`${base}/v1/orders`);
    expect(res.headers.get('x-xss-protection')).toBe('1; mode=block');
  });

  it('names hono/secure-headers at the first request, whose values are sent (spec 4.8)', async () => {
    const { api, warnings } = service([securityHeaders()]);
    const base = await startHono(
      api,
      (app) => app.get('/v1/orders', (c) => c.json({ orders: [], hasNext: false })),
      (app) => app.use(secureHeaders()),
    );
    const res = await fetch(`${base}/v1/orders`);
    expect(res.headers.get('x-xss-protection')).toBe('0'); // as the warning says
    expect(warnings).toEqual([
      expect.stringMatching(/^hono\/secure-headers sets security headers beside/),
    ]);
  });
});

/** A list long enough for every compression package's threshold (1 KiB). */
const books = () => ({
  books: Array.from({ length: 64 }, (_, i) => ({ id: `b${i}`, title: `Book number ${i}` })),
  hasNext: false,
});

/**
 * The same resource asked for compressed and not, then again with each tag: each coding has its
 * own strong tag (RFC 9110 §8.8.3), and each tag gets a 304 (RFC 9110 §13.1.2, spec 4.7).
 */
async function tagsPerCoding(url: string, zippedWeak = false) {
  const get = (encoding: string, tag?: string) =>
    fetch(url, {
      headers: {
        'accept-encoding': encoding,
        ...(tag === undefined ? {} : { 'if-none-match': tag }),
      },
    });
  const zipped = await get('gzip');
  expect(zipped.status).toBe(200);
  expect(zipped.headers.get('content-encoding')).toBe('gzip');
  expect(await zipped.json()).toEqual(books());
  const plain = await get('identity');
  expect(plain.headers.get('content-encoding')).toBeNull();
  const [zippedTag, plainTag] = [zipped.headers.get('etag')!, plain.headers.get('etag')!];
  // hono/compress makes the tag of what it encodes weak, which RFC 9110 §8.8.1 allows.
  expect(zippedTag).toMatch(zippedWeak ? /^W\/"/ : /^"/);
  expect(plainTag).toMatch(/^"/);
  expect(zippedTag).not.toBe(plainTag);
  expect(zipped.headers.get('vary')).toMatch(/accept-encoding/i);
  const again = await get('gzip', zippedTag);
  expect(again.status).toBe(304);
  expect(again.headers.get('etag')).toBe(zippedTag); // RFC 9110 §15.4.5
  expect((await get('identity', plainTag)).status).toBe(304);
  // The identity answer's tag does not stand for the gzip bytes.
  expect((await get('gzip', plainTag)).status).toBe(200);
}

describe('compression companions: a strong ETag per content coding, 304 still answered', () => {
  it('gives compression’s gzip and identity answers different tags (RFC 9110 §8.8.3)', async () => {
    const { api } = service([caching()]);
    const c = toExpressMiddleware(api);
    const app = express();
    app.use(compression());
    app.use(c.before);
    app.get('/v1/books', (_req, res) => {
      res.json(books());
    });
    app.use(c.after);
    const base = await start(createServer(app));
    await tagsPerCoding(`${base}/v1/books`);
  });

  it('gives @fastify/compress’s gzip and identity answers different tags (RFC 9110 §8.8.3)', async () => {
    const { api } = service([caching()]);
    const app = Fastify({ ...serverOptions });
    await app.register(toFastifyPlugin(api));
    await app.register(fastifyCompress);
    app.get('/v1/books', async () => books());
    const base = await startFastify(app);
    await tagsPerCoding(`${base}/v1/books`);
  });

  it('gives hono/compress’s gzip and identity answers different tags (RFC 9110 §8.8.3)', async () => {
    const { api } = service([caching()], { '/v1/books': { GET: () => books() } });
    const base = await startHono(
      api,
      () => {},
      (app) => app.use(honoCompress()),
    );
    await tagsPerCoding(`${base}/v1/books`, true);
  });
});
