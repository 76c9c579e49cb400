/**
 * A local identity provider for the tests: a real node:http server on port 0 serving a JWK set
 * (RFC 7517 §5) at `/jwks`, with RS256 and ES256 signing keys, key rotation and withdrawal, and
 * the ways a provider fails or turns hostile (500, a hang, garbage, JSON that is no key set, a
 * 50 MiB set, a gzip that inflates to 200 MiB), counting its fetches and the bytes it sent.
 * Tokens are shaped as Keycloak, Auth0, Okta and Entra ID issue them (claims and headers from
 * their public documentation; see docs/identity-providers.md).
 */

import { once } from 'node:events';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createGzip } from 'node:zlib';
import { exportJWK, exportSPKI, generateKeyPair, type JWK, SignJWT } from 'jose';

/** One signing key of the provider. */
interface ProviderKey {
  kid: string;
  alg: 'RS256' | 'ES256';
  privateKey: CryptoKey;
  jwk: JWK;
  pem: string;
}

/**
 * How the provider answers its JWKS: normally, with a 500, never, with a body that is not JSON
 * (`garbage`), JSON that is not a JWK set (`not-a-set`), its set padded to 50 MiB with its
 * `Content-Length` (`huge`) or chunked (`huge-chunked`), or a gzip of about 200 KiB that
 * inflates to the set padded to 200 MiB (`gzip-bomb`). The padded sets are valid JWK sets: a
 * client that read them whole would accept their keys.
 */
export type ProviderMode =
  | 'up'
  | 'error'
  | 'hang'
  | 'garbage'
  | 'not-a-set'
  | 'huge'
  | 'huge-chunked'
  | 'gzip-bomb';

const MiB = 1024 * 1024;
/** The size of the `huge` answers. */
export const hugeBytes = 50 * MiB;
/** What the `gzip-bomb` answer inflates to. */
export const bombBytes = 200 * MiB;

/** `{"keys":[…]` and `}` around `pad` spaces: a JWK set of `size` bytes in all. */
function paddedSet(
  jwks: readonly JWK[],
  size: number,
): { head: Buffer; pad: number; tail: Buffer } {
  const head = Buffer.from(`{"keys":${JSON.stringify(jwks)}`);
  const tail = Buffer.from('}');
  return { head, pad: size - head.length - tail.length, tail };
}

const spaces = Buffer.alloc(MiB, 0x20);

/** Until `out` drains or closes, whichever comes first (never rejects, leaves no listener). */
function drained(out: NodeJS.WritableStream): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      out.off('drain', done);
      out.off('close', done);
      resolve();
    };
    out.on('drain', done);
    out.on('close', done);
  });
}

/** Writes `head`, `pad` spaces and `tail` to `out`, waiting for each chunk to drain. */
async function writePadded(
  out: NodeJS.WritableStream,
  set: { head: Buffer; pad: number; tail: Buffer },
  closed: () => boolean,
): Promise<void> {
  out.write(set.head);
  for (let left = set.pad; left > 0 && !closed(); left -= MiB) {
    if (!out.write(left >= MiB ? spaces : spaces.subarray(0, left))) await drained(out);
  }
  if (!closed()) out.end(set.tail);
}

/** The `gzip-bomb` body: the set padded to `bombBytes`, gzipped once (about 200 KiB). */
async function bombOf(jwks: readonly JWK[]): Promise<Buffer> {
  const gzip = createGzip({ level: 9 });
  const parts: Buffer[] = [];
  gzip.on('data', (chunk: Buffer) => parts.push(chunk));
  const done = once(gzip, 'end');
  await writePadded(gzip, paddedSet(jwks, bombBytes), () => false);
  await done;
  return Buffer.concat(parts);
}

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
  /**
   * The bytes of body the last answer handed to its socket before it closed, once it closed: a
   * client that stopped reading leaves most of a `huge` answer unsent.
   */
  lastAnswer(): Promise<{ sent: number; finished: boolean }>;
  /** The keys, RS256 first; the published set leaves out those withdrawn. */
  readonly keys: readonly ProviderKey[];
  /** A key the provider holds but does not publish yet (for an unknown `kid`). */
  readonly hidden: ProviderKey;
  /** Sets how the JWKS answers from now on. */
  mode(mode: ProviderMode): void;
  /** Publishes a new key (a rotation) and returns it. */
  rotate(alg?: 'RS256' | 'ES256'): Promise<ProviderKey>;
  /** Takes the key `kid` out of the published set (it still signs, as a leaked key would). */
  withdraw(kid: string): void;
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
  const withdrawn = new Set<string>();
  const published = () => keys.filter((k) => !withdrawn.has(k.kid)).map((k) => k.jwk);
  let bomb: Buffer | undefined;
  let last: Promise<{ sent: number; finished: boolean }> = Promise.resolve({
    sent: 0,
    finished: true,
  });
  const hanging = new Set<ServerResponse>();
  /** Counts the body bytes `res` takes, and settles `last` when it closes. */
  function counted(res: ServerResponse): ServerResponse {
    let sent = 0;
    const write = res.write.bind(res) as (chunk: Buffer) => boolean;
    res.write = ((chunk: Buffer) => {
      sent += chunk.length;
      return write(chunk);
    }) as typeof res.write;
    last = new Promise((resolve) =>
      res.on('close', () => resolve({ sent, finished: res.writableFinished })),
    );
    return res;
  }
  async function answer(res: ServerResponse): Promise<void> {
    const json = { 'content-type': 'application/json' };
    switch (mode) {
      case 'hang':
        hanging.add(res);
        return;
      case 'error':
        res.writeHead(500, { 'content-type': 'text/plain' }).end('down');
        return;
      case 'garbage':
        res.writeHead(200, json).end('<html><body>Service Unavailable</body></html>');
        return;
      case 'not-a-set':
        res.writeHead(200, json).end(JSON.stringify({ keys: 'rsa-2026-1' }));
        return;
      case 'huge':
      case 'huge-chunked': {
        const set = paddedSet(published(), hugeBytes);
        res.writeHead(200, mode === 'huge' ? { ...json, 'content-length': hugeBytes } : json);
        await writePadded(res, set, () => res.destroyed);
        return;
      }
      case 'gzip-bomb': {
        bomb ??= await bombOf(published());
        res.writeHead(200, { ...json, 'content-encoding': 'gzip', 'content-length': bomb.length });
        res.end(bomb);
        return;
      }
      default:
        res.writeHead(200, json).end(JSON.stringify({ keys: published() }));
    }
  }
  const server: Server = createServer((req, res) => {
    if (req.url !== '/jwks') {
      res.writeHead(404).end();
      return;
    }
    fetches++;
    answer(counted(res)).catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    jwksUri: `http://127.0.0.1:${port}/jwks`,
    get fetches() {
      return fetches;
    },
    lastAnswer: () => last,
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
    withdraw(kid) {
      withdrawn.add(kid);
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
