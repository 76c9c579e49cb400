/** The host's own routes beside the table (Hono's `app.routes`): which methods a path serves. */
import { type MatchFunction, match } from 'path-to-regexp';

/** One of the host's own routes, as Hono lists them in `app.routes`. */
export interface NativeRoute {
  /** The method, upper-case; `ALL` (middleware and catch-alls) is not a method a path offers. */
  readonly method: string;
  /** The path pattern (`/v1/health`, `/v1/things/:id`). */
  readonly path: string;
}

interface Compiled {
  method: string;
  matches: MatchFunction<object>;
}

function compile(routes: readonly NativeRoute[]): Compiled[] {
  const compiled: Compiled[] = [];
  for (const { method, path } of routes) {
    if (method === 'ALL' || path === '*' || path === '/*') continue;
    try {
      // Hono's trailing `*` is a named wildcard in path-to-regexp's syntax.
      const pattern = path.replace(/\/\*$/, '/*rest');
      compiled.push({ method, matches: match(pattern, { decode: false }) });
    } catch {
      // A pattern this syntax cannot read (Hono's `:id{[0-9]+}`) never offers methods for 405.
    }
  }
  return compiled;
}

/**
 * The methods the host's own routes serve on a path, recompiled only when the route list grows
 * (routes are added while the app is being built, and the list is read on demand).
 */
export function methodsOfRoutes(list: () => readonly NativeRoute[]): (path: string) => string[] {
  let seen = -1;
  let compiled: Compiled[] = [];
  return (path) => {
    const routes = list();
    if (routes.length !== seen) {
      compiled = compile(routes);
      seen = routes.length;
    }
    return compiled.filter((route) => route.matches(path)).map((route) => route.method);
  };
}
