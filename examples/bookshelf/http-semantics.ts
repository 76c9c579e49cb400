/** The bookshelf's HTTP semantics: negotiation (JSON, XML for GETs), caching headers and conditional requests. */
import {
  caching,
  negotiation,
  type Plugin,
  type RouteTable,
  withFormatSuffixes,
} from 'api-conventions';

/**
 * The plugins: books offer XML on GET (their routes say so), everything else JSON. A read whose
 * version and request are unchanged sends the JSON text it wrote before, unless `reuseText` is off.
 */
export function httpSemantics(reuseText = true): Plugin[] {
  return [negotiation({ formats: ['json'], vendor: 'bookshelf' }), caching({ reuseText })];
}

/** The route table with the `.json`/`.xml` twins of the routes that ask for them. */
export function httpSemanticsRoutes(routes: RouteTable): RouteTable {
  return withFormatSuffixes(routes);
}
