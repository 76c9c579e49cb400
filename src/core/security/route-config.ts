/** The route settings of the security features, added to `RouteConfig` by declaration merging. */
import type { RequestContext } from '../kernel/context.ts';
import type { RouteConfig } from '../kernel/route-types.ts';
import type { Step } from '../kernel/steps.ts';

/**
 * Values a route may give the headers of the set instead of the service's (a documentation page
 * that needs its own policy, say). A route changes a value; it never drops a header of the set.
 *
 * @category Security
 */
export interface SecurityHeaderOverrides {
  /** `X-XSS-Protection` for this route. */
  xssProtection?: '1; mode=block' | '0';
  /** `X-Frame-Options` for this route. */
  frameOptions?: 'deny' | 'sameorigin';
  /** `Content-Security-Policy` for this route. */
  contentSecurityPolicy?: string;
  /** `Referrer-Policy` for this route. */
  referrerPolicy?: ReferrerPolicyValue;
  /** `Cross-Origin-Resource-Policy` for this route (a public image or script: `'cross-origin'`). */
  crossOriginResourcePolicy?: 'same-origin' | 'same-site' | 'cross-origin';
}

/**
 * A `Referrer-Policy` value (W3C Referrer Policy §3).
 *
 * @category Security
 */
export type ReferrerPolicyValue =
  | 'no-referrer'
  | 'no-referrer-when-downgrade'
  | 'origin'
  | 'origin-when-cross-origin'
  | 'same-origin'
  | 'strict-origin'
  | 'strict-origin-when-cross-origin'
  | 'unsafe-url';

/**
 * A route's server-side access check (spec 4.8): `true` lets the request go on, `false` refuses
 * it (401 without an identity, else 403, or 404 with `hideForbidden`). It runs after routing,
 * before the body is read, and may load the resource named by `ctx.params` to decide.
 *
 * @category Security
 */
export type AuthorizeHook = (ctx: RequestContext) => Step<boolean>;

declare module '../kernel/route-types.ts' {
  interface RouteConfig {
    /** Values of the security header set for this route (read by `securityHeaders()`). */
    securityHeaders?: SecurityHeaderOverrides;
    /**
     * Who may use this route (read by `accessChecks()`): a check, or `'public'` for a route open
     * to everyone, so that a forgotten check is told apart from an open route.
     */
    authorize?: AuthorizeHook | 'public';
    /** Answers a refused request 404 instead of 403, so existence stays hidden. @default the plugin's */
    hideForbidden?: boolean;
    /**
     * The body fields a client may write; any other top-level field (`role`, `ownerId`,
     * `__proto__`) is a 400 (code 40030) before the handler runs (read by `accessChecks()`).
     */
    writable?: readonly string[];
  }
}

/**
 * The route settings the security plugins read, as they appear on {@link RouteConfig}. Each is
 * declared by its plugin, so a route that uses one without the plugin is a start-up `TypeError`.
 *
 * @category Security
 */
export type SecurityRouteConfig = Pick<
  RouteConfig,
  'securityHeaders' | 'authorize' | 'hideForbidden' | 'writable'
>;
