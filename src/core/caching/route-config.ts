/** The route settings and request state of the caching plugin, added by declaration merging. */
import type { RequestContext } from '../kernel/context.ts';
import type { Step } from '../kernel/steps.ts';
import type { CachePolicy } from './cache-control.ts';

/**
 * What a route tells about the current state of its resource, cheaply (without building it):
 * a version that changes with every change, when it last changed, and when it will change.
 *
 * @category Caching
 */
export interface ResourceVersion {
  /** A string that changes whenever the resource does (a revision number, a hash). */
  version?: string;
  /** When the resource last changed: `Last-Modified` and `If-(Un)Modified-Since`. */
  lastModified?: Date | number;
  /** When the resource is known to change next: `Expires` (spec 4.7). */
  expires?: Date | number;
}

/**
 * Reads the current version of a route's resource; `undefined` when the resource does not
 * exist. It runs before the handler, so it must not change anything.
 *
 * @category Caching
 */
export type VersionReader = (ctx: RequestContext) => Step<ResourceVersion | undefined>;

/**
 * How a route's entity tags are built: `strong` (the default), `weak` (`W/"…"`), or none.
 *
 * @category Caching
 */
export type EtagMode = 'strong' | 'weak' | false;

/**
 * The validators of a request's resource, once read (on `ctx.state.validators`).
 *
 * @category Caching
 */
export interface Validators {
  /** The entity tag, as sent. */
  tag: string | undefined;
  /** When the resource last changed, in milliseconds. */
  lastModified: number | undefined;
  /** When it is known to change next, in milliseconds. */
  expires: number | undefined;
}

declare module '../kernel/route-types.ts' {
  interface RouteConfig {
    /** The Cache-Control of this route's successful responses (read by the `caching` plugin). @default the plugin's */
    cacheControl?: CachePolicy;
    /** How this route's entity tags are built (read by the `caching` plugin). @default the plugin's `etag` */
    etag?: EtagMode;
    /**
     * The current version of the route's resource, read before the handler: a GET answers 304
     * without running its handler, and a PUT, PATCH or DELETE of the same path checks `If-Match`
     * before anything changes (read by the `caching` plugin). @default none: tags hash the sent bytes
     */
    resourceVersion?: VersionReader;
    /** Whether a write must be conditional, else 428 (read by the `caching` plugin). @default the plugin's */
    requireIfMatch?: boolean;
  }
}

declare module '../kernel/context.ts' {
  interface RequestState {
    /** The validators of the resource, read before the handler (the `caching` plugin). */
    validators?: Validators;
  }
}
