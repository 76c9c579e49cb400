/** The body formats a route reads and its body's structure, added to `RouteConfig` (read by the pipeline's body step). */
import type { BodyStructure } from '../http/body-structure.ts';
import type { BodyFormat } from '../http/parse-body.ts';

declare module '../kernel/route-types.ts' {
  interface RouteConfig {
    /** The body formats this route reads; anything else is 415. @default ['json'] */
    accepts?: readonly BodyFormat[];
    /**
     * The bounds on this route's body structure, beside `bodyLimit` on its bytes: nesting depth,
     * items of one array, members of one object, values in all, checked while the body is parsed
     * and before any schema or field rule sees it (413 past them). The bounds it names replace
     * the service's; the others stay. @default the `bodyStructure` of {@link ConventionsOptions}
     */
    bodyStructure?: BodyStructure;
  }
}
