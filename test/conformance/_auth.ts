/**
 * How conformance tests authenticate against the bookshelf. Until the bookshelf asks for bearer
 * tokens this returns `undefined` and requests go out without credentials; the OAuth work fills
 * it in (a token per user and server, fetched once from the token endpoint), so every suite that
 * uses `served.fetch` keeps working unchanged.
 */

/** The bookshelf's demo users; `anonymous` sends no credentials. */
export type TestUser = 'alice' | 'bob' | 'anonymous';

/** The `Authorization` header value for `user` on the server at `baseUrl`, if one is needed. */
export async function authorizationFor(
  _baseUrl: string,
  _user: Exclude<TestUser, 'anonymous'>,
): Promise<string | undefined> {
  return undefined;
}
