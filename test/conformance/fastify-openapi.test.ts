/**
 * The app's own Fastify routes in the document: a route's JSON schemas (body,
 * querystring, params, response, and a schema shared with `addSchema`, named in the document)
 * describe its operation; `@fastify/swagger-ui`'s own routes (`schema.hide`) stay out; and with
 * `@fastify/swagger` the library's document replaces the one it derives (its `transformObject`),
 * so the page it serves and `GET /v1/openapi` are one document (docs/openapi.md). Every answer
 * fits it (OpenAPI 3.1 §4.8.13, §4.8.12).
 */
import type { AddressInfo } from 'node:net';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { Validator } from '@seriousme/openapi-schema-validator';
import { conventions, openapi, serveOpenApi } from 'api-conventions';
import { serverOptions, toFastifyPlugin } from 'api-conventions/fastify';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { type Exchange, judge } from './_contract.ts';

const info = { title: 'Orders', version: '1.0.0' };
const quiet = { error: () => {}, warn: () => {} };
const apps: FastifyInstance[] = [];

afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

/** An app as Fastify users write one: shared schemas, route schemas, the swagger plugins. */
async function ordersApp() {
  const api = conventions({ logger: quiet, plugins: [serveOpenApi({ info })] });
  const app = Fastify({ ...serverOptions });
  apps.push(app);
  app.addSchema({
    $id: 'order',
    type: 'object',
    required: ['id', 'item', 'quantity'],
    properties: {
      id: { type: 'string' },
      item: { type: 'string' },
      quantity: { type: 'integer', minimum: 1 },
    },
  });
  await app.register(toFastifyPlugin(api));
  // @fastify/swagger with the library's document in place of the one it derives.
  await app.register(fastifySwagger, {
    openapi: { info },
    transformObject: () => openapi(api, { info }),
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/docs' });
  app.post(
    '/v1/orders',
    {
      schema: {
        summary: 'Place an order',
        tags: ['orders'],
        querystring: {
          type: 'object',
          properties: { dryRun: { type: 'boolean', description: 'Check, do not place.' } },
        },
        body: {
          type: 'object',
          required: ['item', 'quantity'],
          additionalProperties: false,
          properties: { item: { type: 'string' }, quantity: { type: 'integer', minimum: 1 } },
        },
        response: { 201: { $ref: 'order#' } },
      },
    },
    async (request, reply) => {
      const body = request.body as { item: string; quantity: number };
      return reply.code(201).send({ id: 'o1', ...body });
    },
  );
  app.get(
    '/v1/orders/:id',
    {
      schema: {
        params: { type: 'object', properties: { id: { type: 'string', pattern: '^o[0-9]+$' } } },
        response: { 200: { $ref: 'order#' } },
      },
    },
    async (request) => ({ id: (request.params as { id: string }).id, item: 'tea', quantity: 2 }),
  );
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  return { app, api, base };
}

type Doc = {
  paths: Record<string, Record<string, Record<string, unknown>>>;
  components: { schemas: Record<string, unknown> };
};

describe("Fastify routes' JSON schemas in the document", () => {
  it('describes a route by its body, querystring, params and response schemas, its shared schema named (OpenAPI 3.1 §4.8.13)', async () => {
    const { base } = await ordersApp();
    const doc = (await (await fetch(`${base}/v1/openapi`)).json()) as Doc;
    const post = doc.paths['/v1/orders']!.post!;
    expect(post.summary).toBe('Place an order');
    expect(post.tags).toEqual(['orders']);
    expect(post.requestBody).toEqual({
      required: true,
      content: {
        'application/json': {
          schema: {
            type: 'object',
            required: ['item', 'quantity'],
            additionalProperties: false,
            properties: { item: { type: 'string' }, quantity: { type: 'integer', minimum: 1 } },
          },
        },
      },
    });
    expect(post.parameters).toContainEqual({
      name: 'dryRun',
      in: 'query',
      required: false,
      description: 'Check, do not place.',
      schema: { type: 'boolean' },
    });
    expect(post.responses).toMatchObject({
      '201': {
        content: { 'application/json': { schema: { $ref: '#/components/schemas/order' } } },
      },
    });
    expect(doc.components.schemas.order).toMatchObject({ required: ['id', 'item', 'quantity'] });
    const get = doc.paths['/v1/orders/{id}']!.get!;
    expect(get.parameters).toContainEqual({
      name: 'id',
      in: 'path',
      required: true,
      description: 'The id of the resource.',
      schema: { type: 'string', pattern: '^o[0-9]+$' },
    });
    const result = await new Validator().validate(doc as never);
    expect(result.errors).toBeUndefined();
  });

  it("keeps @fastify/swagger-ui's own routes (schema.hide) out of the document", async () => {
    const { base } = await ordersApp();
    const doc = (await (await fetch(`${base}/v1/openapi`)).json()) as Doc;
    expect(Object.keys(doc.paths).filter((p) => p.startsWith('/docs'))).toEqual([]);
    expect((await fetch(`${base}/docs/json`)).status).toBe(200);
  });

  it("serves the library's document through @fastify/swagger (transformObject): one document, the conventions' answers in it", async () => {
    const { base } = await ordersApp();
    const ours = (await (await fetch(`${base}/v1/openapi`)).json()) as Doc;
    const theirs = (await (await fetch(`${base}/docs/json`)).json()) as Doc;
    expect(theirs).toEqual(ours);
    // The table's routes are described by what they answer, not "Default Response".
    expect(Object.keys(theirs.paths['/v1/openapi']!.get!.responses as object)).toContain('200');
    expect(Object.keys(theirs.paths['/v1/orders']!.post!.responses as object)).toEqual(
      expect.arrayContaining(['201', '400', '415', 'default']),
    );
  });

  it('answers every request, the schemas’ refusals included, as its document says (OpenAPI 3.1 §4.8.16)', async () => {
    const { base } = await ordersApp();
    const doc = (await (await fetch(`${base}/v1/openapi`)).json()) as Record<string, unknown>;
    const exchanges: Exchange[] = [];
    const send = async (method: string, target: string, body?: unknown) => {
      const res = await fetch(`${base}${target}`, {
        method,
        ...(body === undefined
          ? {}
          : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
      });
      exchanges.push({
        method,
        target,
        status: res.status,
        contentType: res.headers.get('content-type'),
        body: await res.text(),
      });
      return res.status;
    };
    expect(await send('POST', '/v1/orders', { item: 'tea', quantity: 2 })).toBe(201);
    expect(await send('POST', '/v1/orders?dryRun=true', { item: 'tea', quantity: 0 })).toBe(400);
    expect(await send('POST', '/v1/orders', { item: 'tea' })).toBe(400);
    expect(await send('GET', '/v1/orders/o7')).toBe(200);
    expect(await send('GET', '/v1/orders/x')).toBe(400);
    expect(judge(doc, exchanges, true).map((p) => p.line)).toEqual([]);
  });
});
