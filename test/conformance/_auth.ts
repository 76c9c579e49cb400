/**
 * How conformance tests authenticate against the bookshelf: a bearer token per user and server,
 * fetched once from the token endpoint with the password grant, so every suite that uses
 * `served.fetch` sends alice's token without saying so.
 */

/** The bookshelf's demo users; `anonymous` sends no credentials. */
export type TestUser = 'alice' | 'bob' | 'anonymous';

const passwords: Record<Exclude<TestUser, 'anonymous'>, string> = {
  alice: 'wonderland',
  bob: 'builder',
};
const client = `Basic ${Buffer.from('demo-client:demo-secret').toString('base64')}`;
const tokens = new Map<string, Promise<string | undefined>>();

async function fetchToken(baseUrl: string, user: Exclude<TestUser, 'anonymous'>) {
  const res = await fetch(`${baseUrl}/v1/oauth2/token`, {
    method: 'POST',
    headers: { authorization: client, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'password',
      username: user,
      password: passwords[user],
    }).toString(),
  });
  // A service of a test's own without a token endpoint needs no token.
  if (res.status === 404 || res.status === 405) return undefined;
  if (res.status !== 200) {
    throw new Error(`The token endpoint of ${baseUrl} answered ${res.status}: ${await res.text()}`);
  }
  const body = (await res.json()) as { access_token: string };
  return `Bearer ${body.access_token}`;
}

/** The `Authorization` header value for `user` on the server at `baseUrl`, if one is needed. */
export function authorizationFor(
  baseUrl: string,
  user: Exclude<TestUser, 'anonymous'>,
): Promise<string | undefined> {
  const key = `${baseUrl} ${user}`;
  let token = tokens.get(key);
  if (token === undefined) {
    token = fetchToken(baseUrl, user);
    // A failure is not remembered: the next request asks again.
    token.catch(() => tokens.delete(key));
    tokens.set(key, token);
  }
  return token;
}

/**
 * Forgets the tokens of the server at `baseUrl`, once it closed: the next server the system gives
 * the same port has keys of its own, and would refuse them.
 */
export function forgetTokens(baseUrl: string): void {
  for (const key of tokens.keys()) if (key.startsWith(`${baseUrl} `)) tokens.delete(key);
}
