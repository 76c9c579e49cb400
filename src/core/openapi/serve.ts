/** `serveOpenApi()`: a plugin that serves the service's own OpenAPI document. */
import type { Plugin } from '../pipeline/plugin.ts';
import { type DescribedApi, type OpenApiOptions, openapi } from './document.ts';

/**
 * Options of {@link serveOpenApi}: those of {@link openapi}, and where to serve it.
 *
 * @category Routing
 */
export interface ServeOpenApiOptions extends OpenApiOptions {
  /** The path of the document. @default '/v1/openapi' */
  path?: string;
}

/**
 * Serves the service's own OpenAPI 3.1 document at `GET /v1/openapi` (public JSON, no token
 * asked): built by {@link openapi} from the routes and plugins of the service it is installed
 * in, on the first request (so the routes a host hands over are in it), and again when the
 * host's routes change.
 *
 * @example
 * ```ts
 * const api = conventions({
 *   routes,
 *   plugins: [serveOpenApi({ info: { title: 'Books', version: '1.0.0' } })],
 * });
 * ```
 *
 * @category Routing
 */
export function serveOpenApi(options: ServeOpenApiOptions): Plugin {
  const { path = '/v1/openapi', ...documentOptions } = options ?? ({} as ServeOpenApiOptions);
  // Checked now: a start-up TypeError, not a 500 on the first request.
  openapi({ routes: [] }, documentOptions);
  if (typeof path !== 'string' || !path.startsWith('/')) {
    throw new TypeError(
      `serveOpenApi() path must start with "/", such as '/v1/openapi'; got ${String(path)}.`,
    );
  }
  let api: DescribedApi | undefined;
  let built: { document: Record<string, unknown>; appRoutes: number } | undefined;
  return {
    name: 'openapi',
    routeConfig: ['auth'],
    routes: {
      [path]: {
        GET: {
          handler: () => {
            const described = api as DescribedApi;
            const appRoutes = described.appRoutes?.length ?? 0;
            if (built === undefined || built.appRoutes !== appRoutes) {
              built = { document: openapi(described, documentOptions), appRoutes };
            }
            return built.document;
          },
          config: { auth: false },
        },
      },
    },
    onReady(described) {
      api = described;
    },
  };
}
