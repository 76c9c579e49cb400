/** The route settings of the `bearer` plugin, added to `RouteConfig` by declaration merging. */

declare module '../kernel/route-types.ts' {
  interface RouteConfig {
    /**
     * Whether the route needs a bearer token, with the `bearer` plugin: `'required'` (none → 401),
     * `'optional'` (a token sent is still checked) or `false` (never read: a token endpoint, a
     * health check). @default the plugin's `auth` option, `'required'`
     */
    auth?: 'required' | 'optional' | false;
    /**
     * Scopes the bearer token must hold, every one of them (403 `insufficient_scope` otherwise);
     * read by the `bearer` plugin. @default none
     */
    scopes?: readonly string[];
    /**
     * Whether the bearer token must have been issued to a user, not to a client alone (403
     * otherwise); read by the `bearer` plugin. @default false
     */
    user?: boolean;
  }
}

export {};
