/**
 * The bookshelf's signing keys from configuration: `TOKEN_KEYS` as a JWK set (RFC 7517 §5),
 * given inline or as a file; its tokens carry the configured `kid`, and its JWKS (RFC 8414
 * `jwks_uri`) publishes the public half only. A bad `TOKEN_KEYS` stops the start with a reason,
 * and so does its absence under NODE_ENV=production with `REDIS_URL`: the development key would
 * be kept in Redis in plain form.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { decodeProtectedHeader, exportJWK, generateKeyPair } from 'jose';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { bookshelfTokenKeys, sharedKeyName } from '../../examples/bookshelf/token-keys.ts';
import { MemoryStore } from '../../src/core/stores/memory-store.ts';
import { describeRedis, type RedisServer, startRedis } from '../stores/_redis-servers.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** Starts the bookshelf with `env`; resolves its base URL, or rejects with its exit code and stderr. */
function start(env: Record<string, string>): Promise<{ base: string; stop: () => void }> {
  return new Promise((resolve, reject) => {
    const child: ChildProcess = spawn(
      process.execPath,
      ['--import', 'tsx', 'examples/bookshelf/main.ts'],
      {
        cwd: root,
        env: { ...process.env, PORT: '0', NODE_ENV: 'test', ...env },
        stdio: 'pipe',
      },
    );
    let out = '';
    let err = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /listening on (http:\/\/\S+) \(node\)/.exec(out);
      if (m) resolve({ base: m[1]!, stop: () => child.kill('SIGTERM') });
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      err += chunk.toString();
    });
    child.once('exit', (code) => reject(Object.assign(new Error(err), { code, err })));
  });
}

async function tokenOf(base: string): Promise<string> {
  const res = await fetch(`${base}/v1/oauth2/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from('demo-client:demo-secret').toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=password&username=alice&password=wonderland',
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { access_token: string }).access_token;
}

describe('the bookshelf with TOKEN_KEYS', () => {
  it('signs with the configured key, given inline or as a file, and publishes only its public half', async () => {
    const { privateKey } = await generateKeyPair('ES256', { extractable: true });
    const jwk = { ...(await exportJWK(privateKey)), kid: 'shelf-2026-11', alg: 'ES256' };
    const set = JSON.stringify({ keys: [jwk] });
    const file = join(mkdtempSync(join(tmpdir(), 'shelf-keys-')), 'keys.json');
    writeFileSync(file, set);
    for (const value of [set, file]) {
      const { base, stop } = await start({ TOKEN_KEYS: value });
      try {
        const token = await tokenOf(base);
        expect(decodeProtectedHeader(token)).toMatchObject({ kid: 'shelf-2026-11', alg: 'ES256' });
        const published = (await (await fetch(`${base}/v1/oauth2/jwks`)).json()) as {
          keys: object[];
        };
        expect(published.keys).toEqual([expect.objectContaining({ kid: 'shelf-2026-11' })]);
        expect(published.keys[0]).not.toHaveProperty('d');
        const books = await fetch(`${base}/v1/books`, {
          headers: { authorization: `Bearer ${token}` },
        });
        expect(books.status).toBe(200);
      } finally {
        stop();
      }
    }
  }, 30_000);

  it.each([
    ['not JSON', '{nope', /TOKEN_KEYS: not JSON/],
    ['a missing file', '/nonexistent/keys.json', /TOKEN_KEYS: cannot read the file/],
    ['a set without keys', '{"keys":[]}', /non-empty "keys"/],
  ])(
    'refuses %s and exits with status 1, saying why',
    async (_name, value, reason) => {
      const failure = await start({ TOKEN_KEYS: value }).then(
        ({ stop }) => {
          stop();
          return undefined;
        },
        (error: { code: number; err: string }) => error,
      );
      expect(failure?.code).toBe(1);
      expect(failure?.err).toMatch(reason);
    },
    30_000,
  );
});

describe('the shared development key under NODE_ENV=production', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('is refused, naming TOKEN_KEYS, and never stored', async () => {
    vi.stubEnv('NODE_ENV', 'production');
    const store = new MemoryStore();
    await expect(bookshelfTokenKeys(undefined, store, () => {})).rejects.toThrow(
      /TOKEN_KEYS is not set.*NODE_ENV=production/,
    );
    expect(store.get(sharedKeyName)).toBeUndefined();
  });
});

describeRedis('the bookshelf with REDIS_URL and no TOKEN_KEYS under NODE_ENV=production', () => {
  let server: RedisServer | undefined;
  afterEach(async () => {
    await server?.stop();
  });

  it('refuses to start, saying to set TOKEN_KEYS, and keeps no key in Redis', async () => {
    server = await startRedis();
    const failure = await start({
      NODE_ENV: 'production',
      ALLOW_DEMO_SECRETS: '1',
      REDIS_URL: server.url,
    }).then(
      ({ stop }) => {
        stop();
        return undefined;
      },
      (error: { code: number; err: string }) => error,
    );
    expect(failure?.code).toBe(1);
    expect(failure?.err).toMatch(/TOKEN_KEYS is not set/);
    expect(failure?.err).toMatch(/Set TOKEN_KEYS/);
    const { createClient } = await import('redis');
    const client = await createClient({ url: server.url }).connect();
    try {
      expect(await client.exists(sharedKeyName)).toBe(0);
    } finally {
      client.destroy();
    }
  }, 30_000);
});
