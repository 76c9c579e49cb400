/**
 * `GET /v1/openapi`: the bookshelf's OpenAPI 3.1 document, served by the library's
 * `serveOpenApi` plugin from its own routes; `GET /v1/docs`: a documentation page built from
 * it by Swagger UI.
 */
import {
  type Conventions,
  notFound,
  type OpenApiOptions,
  ok,
  openapi,
  type RouteTable,
} from 'api-conventions';

/** The document's settings: who the service is and where its OAuth endpoints are. */
export const bookshelfOpenApi = {
  info: {
    title: 'Bookshelf',
    version: '1.0.0',
    description: 'The reference service of api-conventions: books, authors, OAuth 2.0.',
    license: { name: 'MIT', identifier: 'MIT' },
  },
  servers: [{ url: '/' }],
  oauth2: {
    tokenUrl: '/v1/oauth2/token',
    authorizationUrl: '/v1/oauth2/authorize',
    scopes: { 'books:read': 'Read books', 'books:write': 'Add, change and delete books' },
  },
  tags: [
    { name: 'books', description: 'The shelf: list, read, add, replace, change and delete books.' },
    { name: 'book-imports', description: 'Many books at once, imported in the background.' },
    { name: 'authors', description: 'Authors, in version 1 (deprecated) and version 2.' },
    { name: 'reviews', description: 'Reviews, retired: every call is 410 Gone.' },
    { name: 'me', description: 'Who the access token names.' },
    { name: 'oauth', description: 'The OAuth 2.0 authorization server: tokens and their keys.' },
    { name: 'openapi', description: 'This document.' },
  ],
} satisfies OpenApiOptions;

/** The bookshelf's document, as `GET /v1/openapi` serves it (`serveOpenApi` in app.ts). */
export function bookshelfDocument(api: Conventions): Record<string, unknown> {
  return openapi(api, bookshelfOpenApi);
}

// The documentation page: Swagger UI from the installed swagger-ui-dist package (no CDN), read
// from disk on first use. Its own scripts and styles only: the page's policy allows 'self' and
// the inline styles Swagger UI sets, where the API's responses allow nothing (spec 4.8).
const pagePolicy =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'";
const assets: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
};
const page = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Bookshelf API</title>
<link rel="stylesheet" href="/v1/docs/swagger-ui.css"></head>
<body><div id="docs"></div>
<script src="/v1/docs/swagger-ui-bundle.js"></script>
<script src="/v1/docs/start"></script>
</body>
</html>
`;
const start = "window.ui = SwaggerUIBundle({ url: '/v1/openapi', dom_id: '#docs' });\n";

/** Reads a file of the installed swagger-ui-dist package (Node only: the page is a demo's). */
function readAsset(name: string): string {
  const runtime = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } })
    .process;
  const fs = runtime?.getBuiltinModule?.('node:fs') as typeof import('node:fs') | undefined;
  const mod = runtime?.getBuiltinModule?.('node:module') as
    | typeof import('node:module')
    | undefined;
  if (fs === undefined || mod === undefined) throw new Error('The documentation page needs Node.');
  const dir = mod.createRequire(import.meta.url).resolve('swagger-ui-dist/package.json');
  return fs.readFileSync(new URL(name, `file://${dir}`), 'utf8');
}

/** `GET /v1/docs` and its assets: public, HTML, CSS and JavaScript, each read once. */
export function docsRoutes(): RouteTable {
  const cache = new Map<string, string>();
  const send = (body: string, type: string) => ok(body, { 'content-type': type });
  // A page for people, not an operation of the API: left out of the document (`hide`).
  const config = {
    auth: false as const,
    securityHeaders: { contentSecurityPolicy: pagePolicy },
    openapi: { hide: true },
  };
  return {
    '/v1/docs': { GET: { handler: () => send(page, 'text/html; charset=utf-8'), config } },
    '/v1/docs/start': {
      GET: { handler: () => send(start, 'text/javascript; charset=utf-8'), config },
    },
    '/v1/docs/:asset': {
      GET: {
        handler: (ctx) => {
          const name = ctx.param('asset');
          const type = assets[name];
          if (type === undefined) throw notFound(`No documentation asset "${name}".`);
          let text = cache.get(name);
          if (text === undefined) {
            text = readAsset(name);
            cache.set(name, text);
          }
          return send(text, type);
        },
        config,
      },
    },
  };
}
