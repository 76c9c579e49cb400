/**
 * Bad input never crashes the auditor: an OpenAPI document with `$ref` cycles, wrong
 * types where objects belong, an invalid pattern and deep nesting, and a service answering
 * garbage, each audited over real HTTP with every option on: the audit resolves to a report.
 */
import { audit } from 'api-conventions/audit';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { json, type Recorder, startRecorder } from './_recorder.ts';

let deep: unknown = { type: 'string' };
for (let i = 0; i < 2_000; i++) deep = { type: 'object', properties: { a: deep }, required: ['a'] };

/** A document that is wrong in every way the auditor could trip on. */
const hostileDocument = {
  openapi: '3.1.0',
  servers: 'not a list',
  security: [{ missing: [] }, 'nonsense'],
  components: {
    securitySchemes: { broken: null, weird: { type: 7 } },
    schemas: {
      A: { $ref: '#/components/schemas/B' },
      B: { $ref: '#/components/schemas/A' },
      Deep: deep,
      BadPattern: { type: 'string', pattern: '(' },
      Self: {
        type: 'object',
        properties: { self: { $ref: '#/components/schemas/Self' } },
        allOf: 'x',
      },
    },
  },
  paths: {
    '/v1/cycle': {
      parameters: 'not a list',
      get: {
        parameters: [
          null,
          7,
          { $ref: '#/components/schemas/A' },
          { name: 'q', in: 'query', required: true, schema: { $ref: '#/components/schemas/A' } },
        ],
        responses: {
          '200': {
            content: { 'application/json': { schema: { $ref: '#/components/schemas/A' } } },
          },
        },
      },
      post: {
        requestBody: {
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Deep' } } },
        },
        responses: null,
      },
    },
    '/v1/deep': {
      get: {
        parameters: [
          { name: 'p', in: 'query', schema: { $ref: '#/components/schemas/BadPattern' } },
        ],
        responses: {
          '200': {
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Deep' } } },
          },
          '4XX': { content: { 'application/json': { schema: { oneOf: 'x', anyOf: [null] } } } },
          default: 'text',
        },
      },
      post: {
        requestBody: {
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Self' } } },
        },
      },
    },
    '/v1/{missing}': { get: { responses: {} } },
    '/v1/null': null,
    '/v1/list': [],
  },
};

let service: Recorder;
beforeAll(async () => {
  let deepBody = '1';
  for (let i = 0; i < 5_000; i++) deepBody = `{"a":${deepBody}}`;
  service = await startRecorder((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path === '/openapi.json') return json(res, 200, hostileDocument);
    if (path === '/v1/deep') {
      res.writeHead(200, {
        'content-type': 'application/json',
        etag: 'garbage',
        'cache-control': ',,;=',
        'x-ratelimit-limit': 'x',
        deprecation: 'soon',
        sunset: 'never',
      });
      return res.end(deepBody);
    }
    if (req.method === 'POST') {
      res.writeHead(201, { location: 'http://[::1', 'content-type': 'application/json' });
      return res.end('{"id":');
    }
    res.writeHead(200, { 'content-type': 'application/json', link: '<<<>>>' });
    res.end('{"date": "2026-02-30T25:61:61Z", "items": [');
  });
});
afterAll(() => service.close());

it('audits a hostile document and a service answering garbage without throwing', async () => {
  const report = await audit({
    baseUrl: service.base,
    openapi: `${service.base}/openapi.json`,
    paths: ['/v1/cycle?q=1'],
    headers: { Authorization: 'Bearer x' },
    origin: 'https://app.example.com',
    client: { id: 'a', secret: 'b' },
    allowWrites: true,
    allowBurst: true,
    maxRequests: 200,
  });
  expect(report.findings.length).toBeGreaterThan(10);
  expect(report.requests).toBeLessThanOrEqual(200);
});
