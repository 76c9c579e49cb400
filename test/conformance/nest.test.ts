/**
 * NestJS through `ConventionsModule.forRoot(api)` on @nestjs/platform-express and
 * @nestjs/platform-fastify: the real Nest packages, a real server on port 0. Nest's
 * routes get authentication, the route view's 404 and 405, the spec's error bodies for Nest's
 * `HttpException`s and `ValidationPipe`, 415 and 40001 for bodies, and the Swagger page public
 * under a policy it loads with.
 */

import { BadRequestException, type NestMiddleware } from '@nestjs/common';
import nestCore from '@nestjs/core/package.json' with { type: 'json' };
import nestExpress from '@nestjs/platform-express/package.json' with { type: 'json' };
import nestFastify from '@nestjs/platform-fastify/package.json' with { type: 'json' };
import nestSwagger from '@nestjs/swagger/package.json' with { type: 'json' };
import { bearer, conventions, createTokenKeys, securityHeaders } from 'api-conventions';
import { ConventionsModule } from 'api-conventions/nest';
import { issueAccessToken } from 'api-conventions/oauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nestApp } from './_fail-closed-nest.ts';
import {
  type NestServed,
  nestMajor,
  type Platform,
  platforms,
  ran,
  serveNest,
} from './_nest-apps.ts';

const issuer = 'https://api.example.com';
const keys = await createTokenKeys({ logger: { error() {}, warn() {} } });
const tokenFor = async (scope: string) => {
  const { token } = await issueAccessToken(keys, {
    issuer,
    audience: issuer,
    subject: 'alice',
    clientId: 'nest',
    scope,
    ttlSeconds: 600,
  });
  return `Bearer ${token}`;
};

for (const platform of platforms) {
  describe(`NestJS ${nestMajor} on @nestjs/platform-${platform}`, () => {
    let served: NestServed | undefined;
    const errors: unknown[] = [];
    const warnings: string[] = [];
    const send = (path: string, init: RequestInit = {}) =>
      fetch(`http://127.0.0.1:${served!.port}${path}`, { redirect: 'manual', ...init });
    const withToken = async (path: string, init: RequestInit = {}, scope = 'books:read') =>
      send(path, {
        ...init,
        headers: { ...(init.headers as object), authorization: await tokenFor(scope) },
      });

    beforeAll(async () => {
      const api = conventions({
        logger: { error: (...args) => errors.push(args), warn: (line) => warnings.push(line) },
        plugins: [bearer({ keys, issuer, audience: issuer }), securityHeaders()],
        routes: {},
        // The Swagger page's paths are Swagger's, not the API's: the route lint leaves them be.
        lintOptions: { allow: ['/docs', '/docs/*', '/docs-json', '/docs-yaml'] },
      });
      served = await serveNest(api, platform, { docs: true });
    });
    afterAll(async () => {
      await served?.close();
    });

    it('logs no warning at start-up or on the first requests', async () => {
      await send('/v1/books');
      await send('/v1/status');
      expect(warnings).toEqual([]);
    });

    it('answers 401 with the Bearer challenge to a route without a token (RFC 6750 §3)', async () => {
      ran.length = 0;
      const res = await send('/v1/books');
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer /);
      expect((await res.json()).errors[0].code).toBe(40100);
      expect(ran).toEqual([]);
    });

    it('runs the route with a token, its value through the response phases', async () => {
      const res = await withToken('/v1/books');
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ books: [{ id: '1', title: 'Emma' }], hasNext: false });
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    });

    it('lets a caller without a token reach a @Public() route', async () => {
      const res = await send('/v1/status');
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ ok: true });
      expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    });

    it('reads the verified caller with identityOf(req)', async () => {
      const res = await withToken('/v1/me');
      expect(await res.json()).toEqual({ subject: 'alice' });
    });

    it('answers 403 insufficient_scope to a route whose @RouteConventions scopes the token lacks (RFC 6750 §3.1)', async () => {
      ran.length = 0;
      const res = await withToken('/v1/books/1', { method: 'DELETE' });
      expect(res.status).toBe(403);
      expect(res.headers.get('www-authenticate')).toContain('insufficient_scope');
      expect(ran).toEqual([]);
      const allowed = await withToken('/v1/books/1', { method: 'DELETE' }, 'books:write');
      expect(allowed.status).toBe(204);
    });

    it('answers 404 with the error body for a path no route serves (spec 7.1)', async () => {
      const res = await send('/v1/nowhere');
      expect(res.status).toBe(404);
      expect((await res.json()).errors[0].code).toBe(40401);
    });

    it('answers 404 for an upper-case path (spec 4.1.3)', async () => {
      const res = await withToken('/V1/books');
      expect(res.status).toBe(404);
    });

    it('answers 405 with Allow for a method the path lacks (RFC 9110 §15.5.6)', async () => {
      const res = await withToken('/v1/status', { method: 'PUT' });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
      expect((await res.json()).errors[0].code).toBe(40500);
    });

    it("gives a NotFoundException's message in the error body, code 40400 (spec 7.1.1)", async () => {
      const res = await send('/v1/books/7');
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ errors: [{ message: 'No book 7.', code: 40400 }] });
    });

    it("lists each of ValidationPipe's problems as an entry of its own (spec 2.11)", async () => {
      const res = await withToken('/v1/books', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ title: 7, year: 1200 }),
      });
      expect(res.status).toBe(400);
      const { errors: entries } = await res.json();
      expect(entries).toEqual([
        { message: 'Title must be a string.', code: 40002 },
        { message: 'Year must not be less than 1400.', code: 40002 },
      ]);
    });

    it('creates with a valid body', async () => {
      const res = await withToken('/v1/books', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ title: 'Persuasion', year: 1817 }),
      });
      expect(res.status).toBe(201);
      expect(await res.json()).toEqual({ id: '2', title: 'Persuasion', year: 1817 });
    });

    it('answers malformed JSON 400 with code 40001 (spec 7.1.4)', async () => {
      const res = await withToken('/v1/books', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"title": ',
      });
      expect(res.status).toBe(400);
      expect((await res.json()).errors[0].code).toBe(40001);
    });

    it('answers a text/plain body 415 (RFC 9110 §15.5.16)', async () => {
      const res = await withToken('/v1/books', {
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body: 'Persuasion',
      });
      expect(res.status).toBe(415);
      expect((await res.json()).errors[0].code).toBe(41500);
    });

    it('answers an unexpected error 500 without its message, and logs it (spec 7.1.5)', async () => {
      errors.length = 0;
      const res = await send('/v1/failures');
      expect(res.status).toBe(500);
      expect(await res.text()).not.toContain('secret detail');
      expect(errors.length).toBeGreaterThan(0);
    });

    it("serves @nestjs/swagger's page without a token, under a policy its scripts load with", async () => {
      const page = await send('/docs');
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('swagger-ui');
      const policy = page.headers.get('content-security-policy') ?? '';
      expect(policy).toContain("script-src 'self'");
      expect(policy).toContain("style-src 'self' 'unsafe-inline'");
      const json = await send('/docs-json');
      expect(json.status).toBe(200);
      expect((await json.json()).openapi).toMatch(/^3\./);
    });
  });
}

// On Fastify, Nest hands the exception filter middie's raw request and response for an error a
// middleware raised (NestJS 12.0's own filter could not answer them, nestjs/nest#17698).
for (const platform of platforms) {
  describe(`NestJS ${nestMajor} on @nestjs/platform-${platform}: errors of Nest middleware`, () => {
    const raising =
      (how: 'throws' | 'passes it to next()'): NestMiddleware['use'] =>
      (_req, _res, next) => {
        const error = new BadRequestException('The request is not one this app takes.');
        if (how === 'throws') throw error;
        next(error);
      };

    it.each(['throws', 'passes it to next()'] as const)(
      'answers an HttpException a middleware %s with its status and the error body (spec 7.1)',
      async (how) => {
        const served = await nestApp({ platform, middleware: () => raising(how) })();
        try {
          const res = await fetch(`http://127.0.0.1:${served.port}/v1/status`);
          expect(res.status).toBe(400);
          expect(await res.json()).toEqual({
            errors: [{ message: 'The request is not one this app takes.', code: 40000 }],
          });
          expect(served.ranPublic).toEqual([]);
        } finally {
          await served.close();
        }
      },
    );
  });
}

describe('NestJS route settings', () => {
  it(`runs on NestJS ${nestMajor}`, () => {
    expect(nestCore.version.split('.')[0]).toBe(nestMajor);
    expect(nestExpress.version.split('.')[0]).toBe(nestMajor);
    if ((platforms as readonly Platform[]).includes('fastify')) {
      expect(nestFastify.version.split('.')[0]).toBe(nestMajor);
    }
    // @nestjs/swagger's majors are not Nest's (8 goes with NestJS 10).
    expect(nestSwagger.peerDependencies['@nestjs/core']).toContain(`^${nestMajor}.`);
  });

  it('refuses a misspelt option of ConventionsModule.forRoot with a TypeError', () => {
    const api = conventions({ routes: {} });
    expect(() => ConventionsModule.forRoot(api, { doc: 'docs' } as never)).toThrow(TypeError);
    expect(() => ConventionsModule.forRoot(api, { docs: 'docs?' })).toThrow(
      /docs must be the path/,
    );
  });

  it.each(platforms)(
    'refuses a misspelt setting at start-up with a TypeError (%s)',
    async (platform) => {
      const api = conventions({ routes: {} });
      await expect(serveNest(api, platform, { misspelt: true })).rejects.toThrow(TypeError);
    },
  );
});
