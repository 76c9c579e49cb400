/** `serveOpenApi()`: a plugin that serves the service's own OpenAPI document. */
import type { DescribedApi, Plugin } from '../kernel/plugin.ts';
import type { RouteTable } from '../kernel/route-table.ts';
import { openapi } from './document.ts';
import type { OpenApiOptions } from './options.ts';

/**
 * Options of {@link serveOpenApi}: those of {@link openapi}, and where to serve it.
 *
 * @category Routing
 */
export interface ServeOpenApiOptions extends OpenApiOptions {
  /** The path of the document. @default '/v1/openapi' */
  path?: string;
}

/** What the document says of its own route. */
const described = {
  summary: 'This OpenAPI document',
  description: 'The OpenAPI 3.1 document of this API, built from its routes (OpenAPI 3.1 §4.1).',
  tags: ['openapi'],
  responses: {
    '200': {
      description: 'The document.',
      content: {
        'application/json': {
          schema: {
            type: 'object',
            required: ['openapi', 'info'],
            properties: { openapi: { type: 'string' }, info: { type: 'object' } },
          },
        },
      },
    },
  },
};

/** The plugin of {@link serveOpenApi}: its route, and the document built from the service. */
class ServeOpenApiPlugin implements Plugin {
  readonly name = 'openapi';
  readonly routeConfig = ['auth'];
  readonly routes: RouteTable;
  private readonly documentOptions: OpenApiOptions;
  private api: DescribedApi | undefined;
  private built: { document: Record<string, unknown>; appRoutes: number } | undefined;

  constructor(options: ServeOpenApiOptions) {
    const { path = '/v1/openapi', ...documentOptions } = options ?? ({} as ServeOpenApiOptions);
    // Checked now: a start-up TypeError, not a 500 on the first request.
    openapi({ routes: [] }, documentOptions);
    if (typeof path !== 'string' || !path.startsWith('/')) {
      throw new TypeError(
        `serveOpenApi() path must start with "/", such as '/v1/openapi'; got ${String(path)}.`,
      );
    }
    this.documentOptions = documentOptions;
    this.routes = {
      [path]: {
        GET: { handler: () => this.document(), config: { auth: false, openapi: described } },
      },
    };
  }

  /** Keeps what the service knows of itself, for the document. */
  onReady(described: DescribedApi): void {
    this.api = described;
  }

  /** The document, built on the first request and again when the app's routes changed. */
  private document(): Record<string, unknown> {
    const described = this.api as DescribedApi;
    const appRoutes = described.appRoutes?.length ?? 0;
    if (this.built === undefined || this.built.appRoutes !== appRoutes) {
      this.built = { document: openapi(described, this.documentOptions), appRoutes };
    }
    return this.built.document;
  }
}

/**
 * Serves the service's own OpenAPI 3.1 document at `GET /v1/openapi` (public JSON, no token
 * asked): built by {@link openapi} from the routes and plugins of the service it is installed
 * in, on the first request (so the routes a host hands over are in it), and again when the
 * app's own routes change.
 *
 * @example
 * ```ts
 * import { conventions, defineRoutes, listOf, serveOpenApi } from 'api-conventions';
 *
 * const routes = defineRoutes({ '/v1/books': { GET: () => listOf('books', [], { hasNext: false }) } });
 *
 * const api = conventions({
 *   routes,
 *   plugins: [serveOpenApi({ info: { title: 'Books', version: '1.0.0' } })],
 * });
 * ```
 *
 * @category Routing
 */
export function serveOpenApi(options: ServeOpenApiOptions): Plugin {
  return new ServeOpenApiPlugin(options);
}
