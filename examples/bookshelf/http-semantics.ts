/** The bookshelf's HTTP semantics: negotiation (JSON, XML for GETs), caching headers and conditional requests. */
import {
  caching,
  negotiation,
  type Plugin,
  type RouteTable,
  withFormatSuffixes,
} from 'api-conventions';

/** The plugins: books offer XML on GET (their routes say so), everything else JSON. */
export function httpSemantics(): Plugin[] {
  return [negotiation({ formats: ['json'], vendor: 'bookshelf' }), caching()];
}

/** The route table with the `.json`/`.xml` twins of the routes that ask for them. */
export function httpSemanticsRoutes(routes: RouteTable): RouteTable {
  return withFormatSuffixes(routes);
}
