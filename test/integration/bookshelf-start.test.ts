/**
 * The reference service started as its README starts it (`npm run example`, here main.ts through
 * tsx on port 0) under NODE_ENV=production, where the library refuses to generate a signing key
 * unless asked: the bookshelf asks, so its token endpoint (spec 4.9) issues tokens and
 * `GET /v1/books` accepts them, instead of starting fine and answering 500 to every token
 * request.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));

describe('the bookshelf under NODE_ENV=production', () => {
  let child: ChildProcess;
  let base = '';
  let stderr = '';

  beforeAll(async () => {
    child = spawn(process.execPath, ['--import', 'tsx', 'examples/bookshelf/main.ts'], {
      cwd: root,
      env: { ...process.env, PORT: '0', NODE_ENV: 'production' },
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
});
