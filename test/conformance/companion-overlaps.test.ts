/**
 * Companions that double up (issue 44, item 4): the packages an app already has for what the
 * library also does — a rate limiter, security headers, authentication, uploads, compression —
 * either answer in the spec's terms beside it, or the library names them at start-up with what to
 * keep. Real packages on real servers on port 0.
 */
import { createServer } from 'node:http';
import fastifyJwt from '@fastify/jwt';
import fastifyMultipart from '@fastify/multipart';
import { ErrorCode } from 'api-conventions';
import { toExpressMiddleware } from 'api-conventions/express';
import { serverOptions, toFastifyPlugin } from 'api-conventions/fastify';
import express from 'express';
import Fastify from 'fastify';
import { jwt } from 'hono/jwt';
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
    const anonymous = await fetch(`${base}/v1/me`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toBe('Bearer realm="Users"');
    expect((await errorsOf(anonymous))[0]!.code).toBe(ErrorCode.Unauthorized);
    const forged = await fetch(`${base}/v1/me`, { headers: { authorization: 'Bearer nope' } });
    expect(forged.status).toBe(401);
    expect(forged.headers.get('www-authenticate')).toMatch(
      /^Bearer realm="Users", error="invalid_token"/,
    );
    expect((await errorsOf(forged))[0]!.code).toBe(ErrorCode.InvalidToken);
    const good = await fetch(`${base}/v1/me`, { headers: { authorization: 'Bearer good' } });
    expect(await good.json()).toEqual({ id: 'alice' });
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
    const anonymous = await fetch(`${base}/v1/me`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toBe('Bearer');
    expect((await errorsOf(anonymous))[0]!.code).toBe(ErrorCode.Unauthorized);
    const forged = await fetch(`${base}/v1/me`, { headers: { authorization: 'Bearer a.b.c' } });
    expect(forged.status).toBe(401);
    expect(forged.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
    expect((await errorsOf(forged))[0]!.code).toBe(ErrorCode.InvalidToken);
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
    const anonymous = await fetch(`${base}/v1/me`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toMatch(/^Bearer realm=/);
    expect((await errorsOf(anonymous))[0]!.code).toBe(ErrorCode.Unauthorized);
    const forged = await fetch(`${base}/v1/me`, { headers: { authorization: 'Bearer a.b.c' } });
    expect(forged.status).toBe(401);
    expect(forged.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
    expect((await errorsOf(forged))[0]!.code).toBe(ErrorCode.InvalidToken);
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
