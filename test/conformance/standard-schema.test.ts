/**
 * Route settings checked with Standard Schema v1 libraries — zod 4, valibot 1, arktype 2 — on
 * every host: a body that does not fit is a 400 with one entry per issue naming its path
 * (`tags[0].name`, spec 7: every problem at once), params, query and headers too; what fits
 * reaches the handler as the schema's output (defaults, coercions). Async schemas work.
 */
import { type } from 'arktype';
import * as v from 'valibot';
import { expect, it } from 'vitest';
import { z } from 'zod';
import { conventions, created, ErrorCode, type RequestContext } from '../../src/index.ts';
import { describeMatrix } from './_matrix.ts';

const zodOrder = z.object({
  item: z.string().min(3),
  quantity: z.number().int().positive().default(1),
  tags: z.array(z.object({ name: z.string().min(1) })).optional(),
});
const valibotOrder = v.object({
  item: v.pipe(v.string(), v.minLength(3)),
  quantity: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1)), 1),
  tags: v.optional(v.array(v.object({ name: v.pipe(v.string(), v.minLength(1)) }))),
});
const arkOrder = type({
  item: 'string >= 3',
  'quantity?': 'number.integer > 0',
  'tags?': type({ name: 'string > 0' }).array(),
});
// An async check, as a lookup in a store would be.
const asyncOrder = z.object({ item: z.string() }).refine(async (o) => o.item !== 'taken', {
  message: 'is taken',
  path: ['item'],
});

const echo = (ctx: RequestContext) => created('/v1/orders/o-1', { received: ctx.body });

function build() {
  return conventions({
    lint: 'off',
    logger: { error: () => {}, warn: () => {} },
    routes: {
      '/v1/zod-orders': { POST: { handler: echo, config: { body: zodOrder } } },
      '/v1/valibot-orders': { POST: { handler: echo, config: { body: valibotOrder } } },
      '/v1/arktype-orders': { POST: { handler: echo, config: { body: arkOrder } } },
      '/v1/async-orders': { POST: { handler: echo, config: { body: asyncOrder } } },
      '/v1/orders/:id': {
        GET: {
          handler: (ctx: RequestContext) => ({
            params: ctx.valid('params'),
            query: ctx.valid('query'),
            headers: ctx.valid('headers'),
          }),
          config: {
            params: z.object({ id: z.string().regex(/^o-\d+$/) }),
            query: z.object({
              limit: z.coerce.number().int().max(50).default(10),
              tag: z.array(z.string()).optional(),
            }),
            headers: z.object({ 'x-tenant': z.string().min(2) }),
          },
        },
      },
    },
  });
}

const post = (
  served: { fetchAs: (u: 'anonymous', p: string, i?: RequestInit) => Promise<Response> },
  path: string,
  body: unknown,
) =>
  served.fetchAs('anonymous', path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describeMatrix('Standard Schema route settings', build, (served) => {
  it.each(['zod', 'valibot', 'arktype'])(
    'answers a %s body that does not fit with 400, one entry per issue naming its path (spec 7)',
    async (lib) => {
      const res = await post(served, `/v1/${lib}-orders`, { item: 'x', tags: [{ name: '' }] });
      expect(res.status).toBe(400);
      const { errors } = (await res.json()) as { errors: { message: string; code: number }[] };
      expect(errors.length).toBeGreaterThanOrEqual(2);
      for (const e of errors) expect(e.code).toBe(ErrorCode.InvalidBody);
      expect(errors.some((e) => e.message.startsWith('The field "item"'))).toBe(true);
      expect(errors.some((e) => e.message.startsWith('The field "tags[0].name"'))).toBe(true);
    },
  );

  it.each(['zod', 'valibot', 'arktype'])(
    'hands the handler the %s output of a body that fits',
    async (lib) => {
      const res = await post(served, `/v1/${lib}-orders`, { item: 'tea', tags: [{ name: 'hot' }] });
      expect(res.status).toBe(201);
      const { received } = await res.json();
      expect(received.item).toBe('tea');
      // zod and valibot fill the default; arktype has none declared.
      if (lib !== 'arktype') expect(received.quantity).toBe(1);
    },
  );

  it('waits for an async schema, and reports its issue', async () => {
    expect((await post(served, '/v1/async-orders', { item: 'free' })).status).toBe(201);
    const res = await post(served, '/v1/async-orders', { item: 'taken' });
    expect(res.status).toBe(400);
    expect((await res.json()).errors).toEqual([
      { message: 'The field "item": is taken', code: ErrorCode.InvalidBody },
    ]);
  });

  it('checks params, query and headers, and hands over their outputs', async () => {
    const ok = await served.fetchAs('anonymous', '/v1/orders/o-7?limit=5&tag=a&tag=b', {
      headers: { 'x-tenant': 'shelf' },
    });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({
      params: { id: 'o-7' },
      query: { limit: 5, tag: ['a', 'b'] },
      headers: { 'x-tenant': 'shelf' },
    });
    const bad = await served.fetchAs('anonymous', '/v1/orders/x-7?limit=500', {
      headers: { 'x-tenant': 's' },
    });
    expect(bad.status).toBe(400);
    const { errors } = (await bad.json()) as { errors: { message: string; code: number }[] };
    expect(errors[0]).toMatchObject({ code: ErrorCode.InvalidParams });
    expect(errors[0]!.message).toContain('The path parameter "id"');
  });

  it('reports the query and headers when the params fit', async () => {
    const res = await served.fetchAs('anonymous', '/v1/orders/o-7?limit=500', {
      headers: { 'x-tenant': 'shelf' },
    });
    expect(res.status).toBe(400);
    expect((await res.json()).errors[0]).toMatchObject({ code: ErrorCode.InvalidQuery });
    const noTenant = await served.fetchAs('anonymous', '/v1/orders/o-7');
    expect(noTenant.status).toBe(400);
    const { errors } = await noTenant.json();
    expect(errors[0]).toMatchObject({ code: ErrorCode.InvalidHeaders });
    expect(errors[0].message).toContain('"x-tenant"');
  });
});
