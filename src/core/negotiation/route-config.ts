/** The route settings and request state of content negotiation, added by declaration merging. */
import type { Chosen, Format } from './media-types.ts';

declare module '../kernel/route-types.ts' {
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
    /**
     * The names in the `negotiation` plugin's `vendor` tree this route also answers in:
     * `['book']` serves `application/vnd.<vendor>.book+json` (and `+xml` where it offers XML,
     * and `….book.v1+json` for each version it serves). No other vendor name is served here.
     * @default []
     */
    vendorTypes?: readonly string[];
  }
}

declare module '../kernel/context.ts' {
  interface RequestState {
    /** The response format negotiated for this request (the `negotiation` plugin). */
    format?: Chosen;
  }
}
