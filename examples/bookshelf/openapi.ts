/** `GET /v1/openapi`: the bookshelf's OpenAPI 3.1 document, built from its own routes on first use. */
import { type Conventions, openapi, type RouteTable } from 'api-conventions';

/** The document's settings: who the service is and where its OAuth endpoints are. */
export function bookshelfDocument(api: Conventions): Record<string, unknown> {
  return openapi(api, {
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
  });
}

/** The public route that serves it; `api` is read on the first request, once it exists. */
export function openapiRoutes(api: () => Conventions): RouteTable {
  let document: Record<string, unknown> | undefined;
  return {
    '/v1/openapi': {
      GET: {
        handler: () => {
          document ??= bookshelfDocument(api());
          return document;
        },
        config: { auth: false },
      },
    },
  };
}
