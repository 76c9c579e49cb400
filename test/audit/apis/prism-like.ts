/**
 * The tests' own Prism-like mock of the Petstore: it answers each documented operation
 * with the document's examples, at the paths without the `servers` base path (as Prism's mock
 * does), refuses what the document does not have with RFC 9457 problem details (404 no path,
 * 405 no method, 401 no credentials, 422 invalid input), and nothing else. Its violations are
 * listed in five-apis.test.ts.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { listen, type Started } from './_listen.ts';

const pet = {
  id: 1,
  name: 'doggie',
  photoUrls: ['https://example.com/dog.png'],
  status: 'available',
};

/** The Petstore document (OpenAPI 3.0, trimmed to what the mock serves), as it is published. */
export const petstore = {
  openapi: '3.0.3',
  info: { title: 'Swagger Petstore', version: '1.0.0' },
  servers: [{ url: 'https://petstore.swagger.io/v2' }],
  components: {
    securitySchemes: {
      petstore_auth: {
        type: 'oauth2',
        flows: {
          implicit: {
            authorizationUrl: 'https://petstore.swagger.io/oauth/authorize',
            scopes: { 'read:pets': 'read your pets' },
          },
        },
      },
      api_key: { type: 'apiKey', name: 'api_key', in: 'header' },
    },
    schemas: {
      Pet: {
        type: 'object',
        required: ['name', 'photoUrls'],
        properties: {
          id: { type: 'integer', format: 'int64' },
          name: { type: 'string', example: 'doggie' },
          photoUrls: { type: 'array', items: { type: 'string' } },
          status: { type: 'string', enum: ['available', 'pending', 'sold'] },
        },
        example: pet,
      },
    },
  },
  paths: {
    '/pet/{petId}': {
      get: {
        parameters: [
          {
            name: 'petId',
            in: 'path',
            required: true,
            example: 1,
            schema: { type: 'integer', format: 'int64' },
          },
        ],
        security: [{ api_key: [] }, { petstore_auth: ['read:pets'] }],
        responses: {
          '200': {
            description: 'successful operation',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } },
          },
          '400': { description: 'Invalid ID supplied' },
          '404': { description: 'Pet not found' },
        },
      },
    },
    '/pet/findByStatus': {
      get: {
        parameters: [
          {
            name: 'status',
            in: 'query',
            required: true,
            schema: {
              type: 'array',
              items: {
                type: 'string',
                enum: ['available', 'pending', 'sold'],
                default: 'available',
              },
            },
          },
        ],
        security: [{ petstore_auth: ['read:pets'] }],
        responses: {
          '200': {
            description: 'successful operation',
            content: {
              'application/json': {
                schema: { type: 'array', items: { $ref: '#/components/schemas/Pet' } },
                example: [pet],
              },
            },
          },
          '400': { description: 'Invalid status value' },
        },
      },
    },
  },
};

/** The same document with the base path the mock really serves (`servers: /`). */
export const petstoreLocal = { ...petstore, servers: [{ url: '/' }] };

function problem(res: ServerResponse, status: number, title: string, detail: string): void {
  res.writeHead(status, { 'content-type': 'application/problem+json' });
  res.end(
    JSON.stringify({ type: `https://stoplight.io/prism/errors#${title}`, title, status, detail }),
  );
}

function handle(req: IncomingMessage, res: ServerResponse) {
  const url = new URL(req.url ?? '/', 'http://mock');
  const json = (body: unknown) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  if (url.pathname === '/openapi.json') return json(petstore);
  if (url.pathname === '/openapi-local.json') return json(petstoreLocal);
  const byId = /^\/pet\/([^/]+)$/.exec(url.pathname);
  const known = byId || url.pathname === '/pet/findByStatus';
  if (!known) {
    return problem(
      res,
      404,
      'NO_PATH_MATCHED_ERROR',
      `The route ${url.pathname} hasn't been found in the specification file`,
    );
  }
  if (req.method === 'OPTIONS') {
    res.writeHead(204, {
      'access-control-allow-origin': '*',
      'access-control-allow-headers': '*',
      'access-control-allow-methods': 'GET,POST,PUT,DELETE,PATCH,HEAD,OPTIONS',
    });
    return res.end();
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    return problem(
      res,
      405,
      'NO_METHOD_MATCHED_ERROR',
      `The route ${url.pathname} does not have a ${req.method} method`,
    );
  }
  if (url.pathname === '/pet/findByStatus') {
    const status = url.searchParams.get('status');
    if (status === null || !['available', 'pending', 'sold'].includes(status)) {
      return problem(
        res,
        422,
        'UNPROCESSABLE_ENTITY',
        'Your request is not valid and no HTTP validation response was found in the spec, so Prism is generating this error for you.',
      );
    }
    return json([pet]);
  }
  if (!req.headers.api_key && !req.headers.authorization) {
    res.setHeader('www-authenticate', 'api_key');
    return problem(res, 401, 'UNAUTHORIZED', 'Invalid security scheme used');
  }
  if (!/^\d+$/.test(byId![1]!)) {
    return problem(
      res,
      422,
      'UNPROCESSABLE_ENTITY',
      'Your request is not valid and no HTTP validation response was found in the spec, so Prism is generating this error for you.',
    );
  }
  json(pet);
}

/** Starts the mock on port 0. */
export function startPrismLike(): Promise<Started> {
  return listen(handle);
}
