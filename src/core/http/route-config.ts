/** The body formats a route reads, added to `RouteConfig` (read by the pipeline's body step). */
import type { BodyFormat } from './parse-body.ts';

declare module '../routing/types.ts' {
  interface RouteConfig {
    /** The body formats this route reads; anything else is 415. @default ['json'] */
    accepts?: readonly BodyFormat[];
  }
}
