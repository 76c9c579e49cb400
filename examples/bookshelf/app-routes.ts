/**
 * The app's own routes each router host declares beside the table, the way a service adopting
 * the library keeps routes of its own: they get authentication, limits, CORS and the always-on
 * headers as table routes do, and read the caller through the host's accessor.
 */
import type { Conventions, Identity, RouteConfig } from 'api-conventions';

/** One of the bookshelf's own routes: its path and the settings its host's guard declares. */
export interface BookshelfAppRoute {
  /** The path, served with GET. */
  readonly path: string;
  /** Its settings. */
  readonly settings: RouteConfig;
}

/**
 * `GET /v1/native` needs a token with `books:write`; `GET /v1/native-public` opts out of
 * authentication.
 */
export const appRoutes: readonly BookshelfAppRoute[] = [
  { path: '/v1/native', settings: { scopes: ['books:write'] } },
  { path: '/v1/native-public', settings: { auth: false } },
];

/** What each answers: who called, as the host's identity accessor gives it. */
export function appRouteAnswer(identity: Identity | undefined) {
  return {
    native: true,
    subject: identity?.subject ?? null,
    scopes: identity ? [...identity.scopes].sort() : [],
  };
}

/**
 * Whether `api` reads the app routes' settings (it has the `bearer` plugin): the hosts also
 * serve the small APIs of other suites, which declare no app routes of their own.
 */
export function servesAppRoutes(api: Conventions): boolean {
  return api.plugins.includes('bearer');
}
