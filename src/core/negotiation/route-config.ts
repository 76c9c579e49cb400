/** The route settings and request state of content negotiation, added by declaration merging. */
import type { Chosen, Format } from './media-types.ts';

declare module '../routing/types.ts' {
  interface RouteConfig {
    /**
     * The response formats this route offers, the first being the default (read by the
     * `negotiation` plugin). @default the plugin's `formats`
     */
    formats?: readonly Format[];
    /** The format this route answers in whatever `Accept` says: set by `withFormatSuffixes`. */
    formatSuffix?: Format;
    /** Whether `withFormatSuffixes` adds `.json`/`.xml` twins of this GET route. @default false */
    suffixes?: boolean;
  }
}

declare module '../pipeline/context.ts' {
  interface RequestState {
    /** The response format negotiated for this request (the `negotiation` plugin). */
    format?: Chosen;
  }
}
