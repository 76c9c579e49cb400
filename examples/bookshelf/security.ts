/** The bookshelf's security: the spec's header set, HSTS on HTTPS, CORS for its web app, CSRF. */
import { cors, type Plugin, securityHeaders } from 'api-conventions';

/** The web app allowed to call the bookshelf from a browser (the contract's one origin). */
export const appOrigin = 'https://app.example.com';

/** Security settings of one bookshelf instance. */
export interface SecuritySettings {
  /** Refuse plain-HTTP requests. @default false */
  requireHttps?: boolean;
  /** Origins allowed by CORS besides {@link appOrigin} (a test page's, say). @default [] */
  extraOrigins?: readonly string[];
}

/** The security plugins, in the order they run: before anything that authenticates. */
export function securityPlugins(settings: SecuritySettings = {}): Plugin[] {
  return [
    securityHeaders({ requireHttps: settings.requireHttps ?? false }),
    cors({ origins: [appOrigin, ...(settings.extraOrigins ?? [])], credentials: true }),
  ];
}
