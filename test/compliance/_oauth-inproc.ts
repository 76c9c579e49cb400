/**
 * The compliance service of _oauth-app.ts driven in process through the fetch adapter, with the
 * client address of each request chosen by the test: races and floods of thousands of requests
 * run in seconds, and "another network" is one argument away.
 */
import { createHash, randomBytes } from 'node:crypto';
import { toFetchHandler } from 'api-conventions/fetch';
import type { OAuthServerOptions } from 'api-conventions/oauth';
import { basic, oauthApp, redirectUri } from './_oauth-app.ts';

/** The address requests come from unless a test says otherwise. */
export const home = '192.0.2.1';

/** A service in process: send a form to a path from an address. */
export interface InProcess {
  /** POSTs `body` as a form to `path` from `from`, with `authorization` when given. */
  post(path: string, body: string, authorization?: string | null, from?: string): Promise<Response>;
  /** `grant_type=password` for a user, as demo-client, from `from`. */
  password(username: string, password: string, from?: string): Promise<Response>;
  /** Signs a user in at the sign-in endpoint for demo-web with a fresh PKCE pair. */
  signIn(
    username: string,
    password: string,
    from?: string,
  ): Promise<{ res: Response; code: string | undefined; verifier: string }>;
  /** Redeems a code as demo-web. */
  exchange(code: string, verifier: string, from?: string): Promise<Response>;
}

const demo = basic('demo-client', 'demo-secret');
const web = basic('demo-web', 'demo-web-secret');

/** Builds the compliance service with `options` and drives it in process. */
export function inProcess(options: OAuthServerOptions): InProcess {
  const { app } = oauthApp(options);
  const handle = toFetchHandler<{ from: string }>(app, { remoteAddress: (_r, c) => c.from });
  const post: InProcess['post'] = async (path, body, authorization = demo, from = home) => {
    const headers: Record<string, string> = {
      'content-type': 'application/x-www-form-urlencoded',
    };
    if (authorization !== null) headers.authorization = authorization;
    const request = new Request(`http://127.0.0.1${path}`, { method: 'POST', headers, body });
    return handle(request, { from });
  };
  const form = (values: Record<string, string>) => new URLSearchParams(values).toString();
  return {
    post,
    password: (username, password, from) =>
      post('/v1/oauth2/token', form({ grant_type: 'password', username, password }), demo, from),
    async signIn(username, password, from) {
      const verifier = randomBytes(32).toString('base64url');
      const challenge = createHash('sha256').update(verifier).digest('base64url');
      const body = form({
        response_type: 'code',
        client_id: 'demo-web',
        redirect_uri: redirectUri,
        code_challenge: challenge,
        code_challenge_method: 'S256',
        username,
        password,
      });
      const res = await post('/v1/oauth2/authorize', body, null, from);
      const location = res.headers.get('location');
      const code = location ? (new URL(location).searchParams.get('code') ?? undefined) : undefined;
      return { res, code, verifier };
    },
    exchange: (code, verifier, from) =>
      post(
        '/v1/oauth2/token',
        form({
          grant_type: 'authorization_code',
          code,
          redirect_uri: redirectUri,
          code_verifier: verifier,
        }),
        web,
        from,
      ),
  };
}
