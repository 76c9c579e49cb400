/** The identity contract: who is calling, as auth establishes it and links, checks and limits read it. */

/**
 * Who is calling. Authentication sets `ctx.identity` once it has verified the caller; access
 * checks, links for permitted operations and rate limits read it, whatever established it.
 *
 * @category Security
 */
export interface Identity {
  /** The user the request acts for, when there is one (a token's `sub`). */
  readonly subject?: string | undefined;
  /** The client application, when known (OAuth `client_id`). */
  readonly clientId?: string | undefined;
  /** The scopes granted to this request. */
  readonly scopes: ReadonlySet<string>;
  /** How the identity was established: `'bearer'`, `'basic'`, `'session'` or a feature's own word. */
  readonly via: string;
  /** Further verified facts (a token's claims), for services that need them. */
  readonly claims?: Readonly<Record<string, unknown>> | undefined;
}

/**
 * Tells whether the caller holds every scope given; `false` when no identity was established.
 *
 * @example
 * ```ts
 * import { forbidden, hasScopes, noContent, type RequestContext } from 'api-conventions';
 *
 * const deleteBook = (ctx: RequestContext) => {
 *   if (!hasScopes(ctx.identity, 'books:write')) throw forbidden('You may not change books.');
 *   return noContent();
 * };
 * ```
 *
 * @category Security
 */
export function hasScopes(identity: Identity | undefined, ...scopes: string[]): boolean {
  if (identity === undefined) return false;
  for (const scope of scopes) if (!identity.scopes.has(scope)) return false;
  return true;
}
