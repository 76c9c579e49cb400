/**
 * Violations the auditor used to miss, each planted in a service of the
 * test's own over real HTTP: a 400 for a body it refused unread (spec 7.2: 413), a PATCH and a
 * PUT answered 204 (4.3: 200 with the changed data), writes that need no credentials at all
 * (5.1), a token endpoint that answers 500 (7.2), and a documented path whose parameter has no
 * example, requested with a value made from its schema.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type AuditReport, audit } from 'api-conventions/audit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const json = (
  res: import('node:http').ServerResponse,
  status: number,
  body: unknown,
  headers = {},
) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
};

const document = {
  openapi: '3.1.0',
  info: { title: 'misses', version: '1' },
  paths: {
    '/v1/things': {
      get: { responses: { '200': { description: 'ok' } } },
      post: {
        requestBody: {
          content: { 'application/json': { example: { name: 'a thing' } } },
        },
        responses: { '201': { description: 'created' } },
      },
    },
    // No example: the auditor makes one from the schema (an integer: 1).
    '/v1/gadgets/{gadgetId}': {
      get: {
        parameters: [{ name: 'gadgetId', in: 'path', required: true, schema: { type: 'integer' } }],
        responses: { '200': { description: 'ok' } },
      },
    },
  },
};

let server: Server;
let base: string;
const seen: string[] = [];
beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    const url = req.url ?? '';
    if (url === '/openapi.json') return json(res, 200, document);
    if (req.method === 'POST' && url === '/v1/oauth2/token') {
      req.resume();
      return json(res, 500, { errors: [{ message: 'Boom.', code: 50000 }] });
    }
    if (req.method === 'POST' && url === '/v1/things') {
      if (Number(req.headers['content-length']) > 1 << 20) {
        // Refused from its Content-Length, unread, with a 400.
        res.setHeader('connection', 'close');
        return json(res, 400, { errors: [{ message: 'Bad request.', code: 40000 }] });
      }
      req.resume();
      return req.on('end', () =>
        json(res, 201, { id: 1, name: 'a thing' }, { location: '/v1/things/1' }),
      );
    }
    if (url === '/v1/things/1' && (req.method === 'PATCH' || req.method === 'PUT')) {
      req.resume();
      res.writeHead(204);
      return res.end();
    }
    if (url === '/v1/things/1' && req.method === 'DELETE') {
      res.writeHead(204);
      return res.end();
    }
    if (req.method === 'GET' && url === '/v1/things')
      return json(res, 200, { things: [], hasNext: false });
    if (req.method === 'GET' && url === '/v1/gadgets/1') return json(res, 200, { id: 1 });
    json(res, 404, { errors: [{ message: `Nothing at ${url}.`, code: 40400 }] });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  report = await audit({ baseUrl: base, openapi: `${base}/openapi.json`, allowWrites: true });
});
afterAll(() => {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(resolve));
});
let report: AuditReport;

const violation = (rule: string, detail: RegExp) =>
  report.findings.filter((f) => f.rule === rule && f.outcome === 'fail' && detail.test(f.detail));

describe('violations once missed', () => {
  it('reports a 400 for an 8 MiB body refused unread (spec 7.2: 413)', () => {
    expect(violation('7.2', /400 for an 8 MiB body it refused before reading it/)).toHaveLength(1);
  });

  it('reports a PATCH and a PUT answered 204 (spec 4.3: 200 with the changed data)', () => {
    const changes = report.findings.filter((f) => f.rule === '4.3' && f.path === '/v1/things/1');
    expect(changes.map((f) => [f.method, f.outcome])).toEqual(
      expect.arrayContaining([
        ['PATCH', 'fail'],
        ['PUT', 'fail'],
      ]),
    );
    expect(seen).toEqual(
      expect.arrayContaining(['PATCH /v1/things/1', 'PUT /v1/things/1', 'DELETE /v1/things/1']),
    );
  });

  it('reports writes accepted without any credentials (spec 5.1)', () => {
    expect(violation('5.1', /accepted \(201\) without any credentials/)).toHaveLength(1);
  });

  it('reports a token endpoint that answers 500 (spec 7.2)', () => {
    expect(violation('7.2', /answered 500 .*server error for a token request/)).toHaveLength(1);
  });

  it('requests a documented path whose parameter has no example, with a value from its schema', () => {
    expect(seen).toContain('GET /v1/gadgets/1');
    expect(report.findings).toContainEqual(
      expect.objectContaining({ rule: '2.7', outcome: 'pass', path: '/v1/gadgets/{gadgetId}' }),
    );
  });
});
