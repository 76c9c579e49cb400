/**
 * On Fastify's own routes, authentication runs before Fastify's body schema validation: an
 * anonymous caller gets 401 with the Bearer challenge (RFC 6750 §3.1), never the 400 that would
 * describe the body's schema, and a caller with a token then gets the schema's 400.
 */
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverOptions, toFastifyPlugin } from '../../src/adapters/fastify.ts';
import { bearer, conventions, createTokenKeys } from '../../src/index.ts';
import { issueAccessToken } from '../../src/oauth.ts';

const issuer = 'https://api.example.com';
const quiet = { error: () => {}, warn: () => {} };
const keys = await createTokenKeys({ logger: quiet });
const schema = {
  body: {
    type: 'object',
    required: ['item'],
    additionalProperties: false,
    properties: { item: { type: 'string', minLength: 3 } },
  },
};

describe('Fastify: authentication before schema validation (RFC 6750 §3.1)', () => {
  let app: FastifyInstance;
  let base = '';
  beforeAll(async () => {
    app = Fastify({ ...serverOptions, forceCloseConnections: true });
    await app.register(
      toFastifyPlugin(
        conventions({
          lint: 'off',
          logger: quiet,
          plugins: [bearer({ keys, issuer, audience: issuer })],
          routes: {},
        }),
      ),
    );
    app.post('/v1/orders', { schema }, async (request) => request.body);
    app.post(
      '/v1/guarded-orders',
      { schema, config: { conventions: { scopes: ['orders:write'] } } },
      async (r) => r.body,
    );
    await app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });
  afterAll(() => app.close());

  const post = (path: string, headers: Record<string, string> = {}) =>
    fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ nope: 1 }),
    });

  it.each(['/v1/orders', '/v1/guarded-orders'])(
    'answers an anonymous caller of %s 401, not the schema 400',
    async (path) => {
      const response = await post(path);
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer realm="api"');
      const text = await response.text();
      expect(text).not.toMatch(/item|required|additional/i);
    },
  );

  it('answers a caller with a token the schema 400, in the spec error body', async () => {
    const { token } = await issueAccessToken(keys, {
      issuer,
      audience: issuer,
      subject: 'alice',
      clientId: 'c',
      scope: 'orders:write',
      ttlSeconds: 60,
    });
    const response = await post('/v1/guarded-orders', { authorization: `Bearer ${token}` });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { errors: { code: number }[] };
    expect(body.errors.length).toBeGreaterThan(0);
  });
});
