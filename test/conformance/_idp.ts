/**
 * A local identity provider for the tests: a real node:http server on port 0 serving a JWK set
 * (RFC 7517 §5) at `/jwks`, with RS256 and ES256 signing keys, key rotation, and the ways a
 * provider fails (500, a hang). Tokens are shaped as Keycloak, Auth0, Okta and Entra ID issue
 * them (claims and headers from their public documentation; see docs/identity-providers.md).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, exportSPKI, generateKeyPair, type JWK, SignJWT } from 'jose';

/** One signing key of the provider. */
interface ProviderKey {
  kid: string;
  alg: 'RS256' | 'ES256';
  privateKey: CryptoKey;
  jwk: JWK;
  pem: string;
}

/** How the provider answers its JWKS: normally, with a 500, or never. */
export type ProviderMode = 'up' | 'error' | 'hang';

async function makeKey(kid: string, alg: 'RS256' | 'ES256'): Promise<ProviderKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  const jwk = { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' };
  return { kid, alg, privateKey, jwk, pem: await exportSPKI(publicKey) };
}

/** A running provider. */
export interface LocalProvider {
  /** The JWKS URL, `http://127.0.0.1:<port>/jwks`. */
  readonly jwksUri: string;
  /** How many times the JWKS was asked for. */
  readonly fetches: number;
  /** The published keys, RS256 first. */
  readonly keys: readonly ProviderKey[];
  /** A key the provider holds but does not publish yet (for an unknown `kid`). */
  readonly hidden: ProviderKey;
  /** Sets how the JWKS answers from now on. */
  mode(mode: ProviderMode): void;
  /** Publishes a new key (a rotation) and returns it. */
  rotate(alg?: 'RS256' | 'ES256'): Promise<ProviderKey>;
  /** Signs `claims` with `key` (the first published one by default), header `typ` as given. */
  sign(
    claims: Record<string, unknown>,
    options?: { key?: ProviderKey; typ?: string | undefined; kid?: string },
  ): Promise<string>;
  close(): Promise<void>;
}

/** Starts a provider on 127.0.0.1, port 0. */
export async function startProvider(): Promise<LocalProvider> {
  const keys = [await makeKey('rsa-2026-1', 'RS256'), await makeKey('ec-2026-1', 'ES256')];
  const hidden = await makeKey('rsa-2026-hidden', 'RS256');
  let mode: ProviderMode = 'up';
  let fetches = 0;
  let rotations = 0;
  const hanging = new Set<import('node:http').ServerResponse>();
  const server: Server = createServer((req, res) => {
    if (req.url !== '/jwks') {
      res.writeHead(404).end();
      return;
    }
    fetches++;
    if (mode === 'hang') {
      hanging.add(res);
      return;
    }
    if (mode === 'error') {
      res.writeHead(500, { 'content-type': 'text/plain' }).end('down');
      return;
    }
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ keys: keys.map((k) => k.jwk) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    jwksUri: `http://127.0.0.1:${port}/jwks`,
    get fetches() {
      return fetches;
    },
    keys,
    hidden,
    mode(next) {
      mode = next;
      if (next !== 'hang') for (const res of hanging) res.destroy();
    },
    async rotate(alg = 'RS256') {
      const key = await makeKey(`rotated-${++rotations}`, alg);
      keys.push(key);
      return key;
    },
    sign(claims, options = {}) {
      const key = options.key ?? keys[0]!;
      const header: Record<string, unknown> = { alg: key.alg, kid: options.kid ?? key.kid };
      const typ = 'typ' in options ? options.typ : 'JWT';
      if (typ !== undefined) header.typ = typ;
      return new SignJWT(claims).setProtectedHeader(header as { alg: string }).sign(key.privateKey);
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const now = () => Math.floor(Date.now() / 1000);

/** The token shapes of four providers, each with the `bearer` settings that accept it. */
export interface ProviderShape {
  readonly name: string;
  readonly issuer: string;
  readonly audience: string;
  /** The claims of a token for alice with `scopes`, valid for 5 minutes. */
  claims(scopes: readonly string[]): Record<string, unknown>;
  /** The header `typ` the provider sends (`undefined`: none). */
  readonly typ: string | undefined;
  /** The client id the library should read from the claims. */
  readonly clientId: string;
  readonly subject: string;
}

const times = () => ({ iat: now(), nbf: now(), exp: now() + 300 });

export const shapes: readonly ProviderShape[] = [
  {
    // Keycloak: realm issuer URL, `azp`, `aud` with `account`, scopes in a `scope` string.
    name: 'Keycloak',
    issuer: 'https://sso.example.com/realms/shelf',
    audience: 'books-api',
    typ: 'JWT',
    clientId: 'shelf-web',
    subject: 'f1b4c6a2-5c1e-4e0b-9d7e-3a1f2b6c8d90',
    claims: (scopes) => ({
      ...times(),
      jti: 'onrtac:0b6f4b1e-8f40-4b47-9f1a-5d1d2c3e4f50',
      iss: 'https://sso.example.com/realms/shelf',
      aud: ['books-api', 'account'],
      sub: 'f1b4c6a2-5c1e-4e0b-9d7e-3a1f2b6c8d90',
      typ: 'Bearer',
      azp: 'shelf-web',
      sid: 'a2b3c4d5',
      scope: ['openid', 'profile', ...scopes].join(' '),
      preferred_username: 'alice',
      realm_access: { roles: ['default-roles-shelf'] },
    }),
  },
  {
    // Auth0: tenant issuer with its trailing slash, `aud` with the userinfo URL, `azp`.
    name: 'Auth0',
    issuer: 'https://shelf.eu.auth0.com/',
    audience: 'https://books.example.com',
    typ: 'JWT',
    clientId: 'k3Jd9QmX2v7ZpL0aBcD4eF6gH8iJ1kLm',
    subject: 'auth0|6560f1a2b3c4d5e6f7a8b9c0',
    claims: (scopes) => ({
      ...times(),
      iss: 'https://shelf.eu.auth0.com/',
      aud: ['https://books.example.com', 'https://shelf.eu.auth0.com/userinfo'],
      sub: 'auth0|6560f1a2b3c4d5e6f7a8b9c0',
      azp: 'k3Jd9QmX2v7ZpL0aBcD4eF6gH8iJ1kLm',
      scope: ['openid', 'profile', ...scopes].join(' '),
    }),
  },
  {
    // Okta: custom authorization server issuer, `cid`, scopes as an `scp` array, no `typ`.
    name: 'Okta',
    issuer: 'https://shelf.okta.com/oauth2/default',
    audience: 'api://default',
    typ: undefined,
    clientId: '0oa1b2c3d4E5F6g7H8i9',
    subject: 'alice@example.com',
    claims: (scopes) => ({
      ...times(),
      ver: 1,
      jti: 'AT.x1Y2z3A4b5C6d7E8f9G0h1I2j3K4l5M6n7O8p9Q0',
      iss: 'https://shelf.okta.com/oauth2/default',
      aud: 'api://default',
      cid: '0oa1b2c3d4E5F6g7H8i9',
      uid: '00u1a2b3c4D5E6f7G8h9',
      scp: ['openid', ...scopes],
      auth_time: now() - 60,
      sub: 'alice@example.com',
    }),
  },
  {
    // Entra ID (v2.0 tokens): tenant issuer, the API's client id as `aud`, `azp`, `scp` string.
    name: 'Entra ID',
    issuer: 'https://login.microsoftonline.com/8f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f/v2.0',
    audience: '6e5d4c3b-2a19-4807-9f6e-5d4c3b2a1908',
    typ: 'JWT',
    clientId: '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
    subject: 'AAAAAAAAAAAAAAAAAAAAAIkzqFVrSaSaFHy782bbtaQ',
    claims: (scopes) => ({
      ...times(),
      ver: '2.0',
      iss: 'https://login.microsoftonline.com/8f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f/v2.0',
      aud: '6e5d4c3b-2a19-4807-9f6e-5d4c3b2a1908',
      azp: '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
      azpacr: '0',
      oid: '00000000-0000-0000-66f3-3332eca7ea81',
      tid: '8f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f',
      scp: scopes.join(' '),
      sub: 'AAAAAAAAAAAAAAAAAAAAAIkzqFVrSaSaFHy782bbtaQ',
      name: 'Alice',
      uti: 'AbCdEf123456',
    }),
  },
];
