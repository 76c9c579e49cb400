/**
 * The reference service started as its README starts it (`npm run example`, here main.ts through
 * tsx on port 0) under NODE_ENV=production: it refuses to start with its published demo secrets
 * unless ALLOW_DEMO_SECRETS=1 asks for them. Asked, where the library refuses to generate a
 * signing key unless asked too: the bookshelf asks, so its token endpoint (spec 4.9) issues
 * tokens and `GET /v1/books` accepts them, instead of starting fine and answering 500 to every
 * token request.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest } from '../conformance/_raw.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));

describe('the bookshelf under NODE_ENV=production without ALLOW_DEMO_SECRETS', () => {
  it('refuses to start with its published demo secrets, naming ALLOW_DEMO_SECRETS=1', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'examples/bookshelf/main.ts'], {
      cwd: root,
      env: { ...process.env, PORT: '0', NODE_ENV: 'production', ALLOW_DEMO_SECRETS: '' },
      stdio: 'pipe',
    });
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    // A start that wrongly goes on listening is stopped, never left running.
    let listened = false;
    child.stdout!.on('data', () => {
      listened = true;
      child.kill('SIGTERM');
    });
    const code = await new Promise((done) => child.once('exit', done));
    expect(listened).toBe(false);
    expect(code).toBe(1);
    expect(stderr).toContain('published secrets');
    expect(stderr).toContain('set ALLOW_DEMO_SECRETS=1');
  }, 30_000);
});

describe('the bookshelf under NODE_ENV=production with ALLOW_DEMO_SECRETS=1', () => {
  let child: ChildProcess;
  let base = '';
  let stderr = '';

  beforeAll(async () => {
    child = spawn(process.execPath, ['--import', 'tsx', 'examples/bookshelf/main.ts'], {
      cwd: root,
      env: { ...process.env, PORT: '0', NODE_ENV: 'production', ALLOW_DEMO_SECRETS: '1' },
      stdio: 'pipe',
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    base = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const m = /listening on (http:\/\/\S+) \(node\)/.exec(out);
        if (m) resolve(m[1]!);
      });
      child.once('exit', (code) => reject(new Error(`exited ${code}: ${stderr}`)));
    });
  }, 30_000);

  afterAll(async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((done) => child.once('exit', done));
    child.kill('SIGTERM');
    await exited;
  });

  it('issues a token for alice (spec 4.9) and serves /v1/books with it', async () => {
    const basic = Buffer.from('demo-client:demo-secret').toString('base64');
    const token = await fetch(`${base}/v1/oauth2/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${basic}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=password&username=alice&password=wonderland&scope=books%3Aread',
    });
    expect(token.status, await token.clone().text()).toBe(200);
    const { access_token: accessToken } = (await token.json()) as { access_token: string };

    const books = await fetch(`${base}/v1/books`, {
      headers: { authorization: `Bearer ${accessToken}` },
    });
    expect(books.status).toBe(200);
    const body = (await books.json()) as { books: unknown[] };
    expect(body.books).toHaveLength(20);
    // The development key is announced, never silent.
    expect(stderr).toMatch(/development/i);
  });

  it('fixes its token issuer to its listening origin: a token revoked through another host name is refused (RFC 7009 §2.1)', async () => {
    const basic = Buffer.from('demo-client:demo-secret').toString('base64');
    const port = Number(new URL(base).port);
    const post = (host: string, path: string, body: string) =>
      rawRequest(
        port,
        `POST ${path} HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Basic ${basic}\r\n` +
          `Content-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\n` +
          `Connection: close\r\n\r\n${body}`,
      );
    const issued = await post(
      `127.0.0.1:${port}`,
      '/v1/oauth2/token',
      'grant_type=password&username=bob&password=builder',
    );
    expect(issued.status).toBe(200);
    const token = JSON.parse(issued.body).access_token as string;
    const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString());
    expect(claims.iss).toBe(base);
    const revoked = await post(`localhost:${port}`, '/v1/oauth2/revoke', `token=${token}`);
    expect(revoked.status).toBe(200);
    const after = await fetch(`${base}/v1/books`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(after.status).toBe(401);
    // A fixed issuer: no warning about one taken from the request.
    expect(stderr).not.toMatch(/issuer/);
  });
});

describe('the bookshelf with ISSUER', () => {
  const run = (issuer: string) =>
    spawn(process.execPath, ['--import', 'tsx', 'examples/bookshelf/main.ts'], {
      cwd: root,
      env: { ...process.env, PORT: '0', NODE_ENV: 'test', ISSUER: issuer },
      stdio: 'pipe',
    });

  it('names ISSUER as the issuer in its metadata (RFC 8414 §2)', async () => {
    const child = run('https://books.example.com');
    try {
      const base = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout!.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          const m = /listening on (http:\/\/\S+) \(node\)/.exec(out);
          if (m) resolve(m[1]!);
        });
        child.once('exit', (code) => reject(new Error(`exited ${code}`)));
      });
      const meta = await (await fetch(`${base}/.well-known/oauth-authorization-server`)).json();
      expect(meta.issuer).toBe('https://books.example.com');
      expect(meta.token_endpoint).toBe('https://books.example.com/v1/oauth2/token');
    } finally {
      const exited = new Promise((done) => child.once('exit', done));
      child.kill('SIGTERM');
      await exited;
    }
  });

  it('refuses to start with an ISSUER that is no http(s) URL', async () => {
    const child = run('books.example.com');
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    // A start that wrongly goes on listening is stopped, never left running.
    child.stdout!.on('data', () => child.kill('SIGTERM'));
    const code = await new Promise((done) => child.once('exit', done));
    expect(code).toBe(1);
    expect(stderr).toContain('ISSUER must be an http(s) URL');
  });
});
