/** What the bearer plugin asks of a route's caller: `auth`, `scopes` and `user`, compiled once. */
import type { Identity } from '../kernel/identity.ts';
import type { RouteSettings } from '../kernel/route-types.ts';
import { type Challenges, isScopeToken } from './challenge.ts';

/** A route's settings compiled for the request path. */
export interface RoutePlan {
  mode: 'required' | 'optional' | 'off';
  scopes: readonly string[];
  scopeText: string;
  scopeHeaders: Record<string, string> | undefined;
  user: boolean;
  /** Whether the route reads form bodies, where a token may sit. */
  formBody: boolean;
}

const bodyMethods = new Set(['POST', 'PUT', 'PATCH']);

/**
 * Compiles a route's `auth`, `scopes` and `user` once; a misuse is a `TypeError`. `defaultMode`
 * is the plugin's `auth`, `formBodies` whether it reads tokens in form bodies.
 */
export function compileRoutePlan(
  route: RouteSettings,
  defaultMode: 'required' | 'optional',
  formBodies: boolean,
  challenges: Challenges,
): RoutePlan {
  const where = `${route.method} ${route.pattern}`;
  const { auth, scopes = [], user = false, accepts = ['json'] } = route.config;
  if (auth !== undefined && auth !== 'required' && auth !== 'optional' && auth !== false) {
    throw new TypeError(
      `${where}: auth must be 'required', 'optional' or false; got ${String(auth)}.`,
    );
  }
  if (!Array.isArray(scopes) || !scopes.every((s) => typeof s === 'string' && isScopeToken(s))) {
    throw new TypeError(
      `${where}: scopes must be a list of scope names without spaces or quotes, such as ['books:write'].`,
    );
  }
  if (typeof user !== 'boolean') throw new TypeError(`${where}: user must be true or false.`);
  if (auth === false && (scopes.length > 0 || user)) {
    throw new TypeError(
      `${where}: a route with auth: false cannot ask for scopes or a user; drop one.`,
    );
  }
  const mode =
    auth === false ? 'off' : scopes.length > 0 || user ? 'required' : (auth ?? defaultMode);
  const scopeText = scopes.join(' ');
  return {
    mode,
    scopes,
    scopeText,
    scopeHeaders: scopes.length > 0 ? challenges.scopeHeadersFor(scopeText) : undefined,
    user,
    formBody: formBodies && bodyMethods.has(route.method) && accepts.includes('form'),
  };
}

/**
 * Lets a verified caller through a route, or refuses it: no subject where the route wants a
 * user, or a scope missing (403).
 */
export function allowOn(plan: RoutePlan, identity: Identity, challenges: Challenges): undefined {
  if (plan.user && identity.subject === undefined) throw challenges.userRequired();
  for (const scope of plan.scopes) {
    if (!identity.scopes.has(scope)) {
      throw challenges.insufficientScope(plan.scopeText, plan.scopeHeaders!);
    }
  }
  return undefined;
}
