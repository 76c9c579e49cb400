/** `.json` and `.xml` path suffixes (spec 4.5): extra routes that pin a format, declared at start-up. */
import type { PathMethods, RouteDefinition, RouteTable } from '../kernel/route-table.ts';
import type { Format } from './media-types.ts';

/**
 * Options of {@link withFormatSuffixes}.
 *
 * @category Negotiation
 */
export interface FormatSuffixOptions {
  /** The formats of a route that has no `formats` setting (keep it equal to the plugin's). @default ['json'] */
  formats?: readonly Format[];
}

/**
 * Adds, for every GET route whose settings say `suffixes: true`, one route per format it offers
 * with the format's suffix after the pattern (`/v1/books/:id.xml`), answering in that format
 * whatever `Accept` says. The twins come before their pattern, so a parameter never swallows
 * the suffix. Hosts with their own router mount them like any other route.
 *
 * @example
 * ```ts
 * import { conventions, negotiation, type RequestContext, withFormatSuffixes } from 'api-conventions';
 *
 * const getBook = (ctx: RequestContext) => ({ id: ctx.param('id'), title: 'Emma' });
 * // /v1/books/emma, /v1/books/emma.json and /v1/books/emma.xml
 * const routes = withFormatSuffixes({
 *   '/v1/books/:id': { GET: { handler: getBook, config: { formats: ['json', 'xml'], suffixes: true } } },
 * });
 * const api = conventions({ routes, plugins: [negotiation()] });
 * ```
 *
 * @category Negotiation
 */
export function withFormatSuffixes(
  table: RouteTable,
  options: FormatSuffixOptions = {},
): RouteTable {
  const out: Record<string, PathMethods> = {};
  for (const [pattern, methods] of Object.entries(table)) {
    const get = methods.GET;
    const definition: RouteDefinition | undefined =
      typeof get === 'function' ? { handler: get } : get;
    if (definition?.config?.suffixes === true) {
      if (/\*[^/]*$|\}$|\/$/.test(pattern)) {
        throw new TypeError(
          `Route "GET ${pattern}": suffixes need a pattern ending in a name or a parameter, not "/", "*" or an optional group.`,
        );
      }
      const formats = definition.config.formats ?? options.formats ?? ['json'];
      for (const format of formats) {
        const config = { ...definition.config, formatSuffix: format };
        delete config.suffixes;
        out[`${pattern}.${format}`] = { GET: { handler: definition.handler, config } };
      }
    }
    out[pattern] = methods;
  }
  return out;
}
