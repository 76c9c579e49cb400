/** The bookshelf's security: the spec's header set, HSTS on HTTPS, CORS for its web app, CSRF. */
import { cors, csrf, type Plugin, securityHeaders } from 'api-conventions';

/** The web app allowed to call the bookshelf from a browser (the contract's one origin). */
export const appOrigin = 'https://app.example.com';

/** Security settings of one bookshelf instance. */
export interface SecuritySettings {
  /** Refuse plain-HTTP requests. @default false */
  requireHttps?: boolean;
  /** Origins allowed by CORS besides {@link appOrigin} (a test page's, say). @default [] */
  extraOrigins?: readonly string[];
  /**
   * The key of CSRF tokens; the same on every instance of one service. The bookshelf has no
   * cookie sessions, so only the cross-site checks act. @default 32 random bytes per instance
   */
  csrfSecret?: string | Uint8Array;
}

/** The security plugins, in the order they run: before anything that authenticates. */
export function securityPlugins(settings: SecuritySettings = {}): Plugin[] {
  const origins = [appOrigin, ...(settings.extraOrigins ?? [])];
  return [
    securityHeaders({ requireHttps: settings.requireHttps ?? false }),
    cors({ origins, credentials: true }),
    // A cross-site form or script may not change anything; bearer-token requests are exempt.
    csrf({
      secret: settings.csrfSecret ?? crypto.getRandomValues(new Uint8Array(32)),
      trustedOrigins: origins,
      // No cookie sessions here: a cookie a client sends authenticates nothing.
      session: () => undefined,
    }),
  ];
}
