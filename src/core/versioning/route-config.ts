/** The route settings and request state of versioning, added by declaration merging. */
import type { Deprecation } from './deprecation.ts';

declare module '../kernel/route-types.ts' {
  interface RouteConfig {
    /**
     * This endpoint's deprecation: announcement, sunset (at least 6 months later), successor and
     * documentation (spec 9.8). Read by the {@link versioning} plugin, which must be present.
     * @default not deprecated
     */
    deprecation?: Deprecation | undefined;
  }
}

declare module '../kernel/context.ts' {
  interface RequestState {
    /**
     * The major version a request asked for by query or media type on a {@link versioned} route,
     * once the {@link versioning} plugin chose it; `undefined` elsewhere.
     */
    apiVersion?: number | undefined;
  }
}
