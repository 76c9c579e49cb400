/**
 * The client's types of paths and parameters: which paths a table has for a method, the settings
 * of one route, the parameters its template names. Types only: nothing here exists at run time.
 */
// From the one copy of the core, as types only: the client loads nothing of the service side.
import type { RouteTypes } from '#core';

/**
 * What a typed client reads a service from: path → method → route settings. A table made by
 * `defineRoutes` carries them (`RoutesOf<typeof routes>` takes them out); a plain object of
 * that shape does too.
 *
 * @category Client
 */
export type RoutesOf<X> = X extends RouteTypes<infer T> ? T : X;

/**
 * No members: what a route without parameters, query or settings declares.
 *
 * @category Client
 */
export type Nothing = Record<never, never>;

/** The methods a client calls. */
export type ClientMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * The paths of `R` that have method `M`.
 *
 * @category Client
 */
export type PathsWith<R, M extends ClientMethod> = {
  [P in keyof R]: M extends keyof R[P] ? P : never;
}[keyof R] &
  string;

/**
 * The settings of one route (a bare handler has none), copied member by member: the table's
 * types are inferred through defineRoutes' mapped type, and a conditional type reads the copy's
 * members where it would not read the inferred type's.
 *
 * @category Client
 */
export type SettingsOf<R, P, M> = P extends keyof R
  ? M extends keyof R[P]
    ? R[P][M] extends (...args: never[]) => unknown
      ? Nothing
      : { [K in keyof R[P][M]]: R[P][M][K] }
    : Nothing
  : Nothing;

/** The settings of the route at path `P` for method `M`. */
export type RouteAt<R, P, M> = SettingsOf<R, P, M>;

/**
 * The parameters a route template names: `:id` (or OpenAPI's `{id}`) → `{ id: string | number }`.
 *
 * @category Client
 */
export type ParamsOf<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? { [K in Name]: string | number } & ParamsOf<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? { [K in Name]: string | number }
    : P extends `${string}{${infer Name}}${infer Rest}`
      ? { [K in Name]: string | number } & ParamsOf<Rest>
      : Nothing;
