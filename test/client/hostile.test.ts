/**
 * api-conventions/client against hostile services of the tests' own: a service that
 * sends its `Link`, `Location` or RFC 8414 metadata to another origin, or down to plain http,
 * gets nothing of the client's credentials there. A second server (the "collector") records
 * whatever reaches it.
 */
import { ApiResponseError, createClient, isClientRefusedError } from 'api-conventions/client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  fetchTrusting,
  type Handler,
  json,
  type Recorder,
  startRecorder,
  startTlsRecorder,
} from './_hostile.ts';

/** What the hostile service does on each request; tests set it. */
let behave: Handler = (_req, res) => json(res, {});
let hostile: Recorder;
let collector: Recorder;

beforeAll(async () => {
  hostile = await startRecorder((req, res) => behave(req, res));
  collector = await startRecorder((req, res) => {
    if (req.target.startsWith('/token'))
      return json(res, { access_token: 'x', token_type: 'Bearer' });
    json(res, { books: [{ id: 'elsewhere' }], hasNext: false });
  });
});
afterAll(async () => {
  await hostile.close();
  await collector.close();
});
afterEach(() => {
  hostile.received.length = 0;
  collector.received.length = 0;
});

/** The error a promise rejects with (or what it resolved to). */
const outcome = (p: Promise<unknown>) =>
  p.then(
    (value) => ({ resolved: value }),
    (error: unknown) => error,
  );

/** Every item of `paginate` on the hostile service's list. */
async function pageAll(client: ReturnType<typeof createClient>): Promise<unknown[]> {
  const items: unknown[] = [];
  for await (const item of client.paginate('/v1/books')) items.push(item);
  return items;
}

const secrets = { token: 'secret-token', headers: { 'x-api-key': 'secret-key' } };

describe('credentials stay with the base URL’s origin', () => {
  it('refuses a Link rel="next" to another origin and sends nothing there (RFC 6454 §5; RFC 8288)', async () => {
    behave = (_req, res) =>
      json(
        res,
        { books: [{ id: 'emma' }], hasNext: true },
        {
          link: `<${collector.origin}/v1/books?page=2>; rel="next"`,
        },
      );
    const client = createClient({ baseUrl: hostile.origin, ...secrets });
    const error = await outcome(pageAll(client));
    expect(isClientRefusedError(error)).toBe(true);
    expect(error).toMatchObject({ reason: 'origin', url: `${collector.origin}/v1/books?page=2` });
    expect(String((error as Error).message)).toContain('followOrigins');
    expect(hostile.received[0]?.headers.authorization).toBe('Bearer secret-token');
    expect(collector.received).toEqual([]);
  });

  it('follows a Link to an origin listed in followOrigins without the token or the headers option', async () => {
    behave = (_req, res) =>
      json(
        res,
        { books: [{ id: 'emma' }], hasNext: true },
        {
          link: `<${collector.origin}/v1/books?page=2>; rel="next"`,
        },
      );
    const client = createClient({
      baseUrl: hostile.origin,
      ...secrets,
      followOrigins: [collector.origin],
    });
    expect(await pageAll(client)).toEqual([{ id: 'emma' }, { id: 'elsewhere' }]);
    expect(collector.received).toHaveLength(1);
    const sent = collector.received[0]!.headers;
    expect(sent.authorization).toBeUndefined();
    expect(sent['x-api-key']).toBeUndefined();
    expect(sent.accept).toBe('application/json');
  });

  it('refuses a redirect to another origin, and follows one on its own origin with its credentials (RFC 9110 §15.4)', async () => {
    behave = (req, res) => {
      if (req.target === '/v1/away') {
        res.writeHead(302, { location: `${collector.origin}/v1/books` }).end();
      } else if (req.target === '/v1/here') {
        res.writeHead(307, { location: '/v1/there' }).end();
      } else json(res, { at: req.target });
    };
    const client = createClient({ baseUrl: hostile.origin, ...secrets });
    const error = await outcome(client.get('/v1/away'));
    expect(error).toMatchObject({ name: 'ClientRefusedError', reason: 'origin' });
    expect(collector.received).toEqual([]);
    expect(await client.get('/v1/here')).toEqual({ at: '/v1/there' });
    expect(hostile.received.map((r) => [r.target, r.headers.authorization])).toEqual([
      ['/v1/away', 'Bearer secret-token'],
      ['/v1/here', 'Bearer secret-token'],
      ['/v1/there', 'Bearer secret-token'],
    ]);
  });

  it('never sends a write to another origin after a redirect, even to one it may follow', async () => {
    behave = (_req, res) => res.writeHead(307, { location: `${collector.origin}/v1/books` }).end();
    const client = createClient({
      baseUrl: hostile.origin,
      ...secrets,
      followOrigins: [collector.origin],
    });
    const error = await outcome(client.post('/v1/books', { body: { title: 'Emma' } }));
    expect(error).toMatchObject({ reason: 'origin' });
    expect(collector.received).toEqual([]);
  });

  it('refuses RFC 8414 metadata whose token_endpoint is on another origin: no secret, no password sent (RFC 8414 §3.3)', async () => {
    behave = (_req, res) =>
      json(res, { issuer: hostile.origin, token_endpoint: `${collector.origin}/token` });
    const client = createClient({
      baseUrl: hostile.origin,
      oauth: { clientId: 'demo', clientSecret: 'demo-secret', username: 'alice', password: 'pw' },
    });
    const error = await outcome(client.get('/v1/me'));
    expect(error).toMatchObject({ reason: 'origin', url: `${collector.origin}/token` });
    expect(String((error as Error).message)).toContain('oauth.allowedOrigins');
    expect(collector.received).toEqual([]);
    expect(hostile.received.map((r) => r.target)).toEqual([
      '/.well-known/oauth-authorization-server',
    ]);
  });

  it('refuses RFC 8414 metadata that names another issuer (RFC 8414 §3.3)', async () => {
    behave = (req, res) =>
      req.target.startsWith('/.well-known')
        ? json(res, { issuer: collector.origin, token_endpoint: `${hostile.origin}/token` })
        : json(res, { access_token: 'x' });
    const client = createClient({
      baseUrl: hostile.origin,
      oauth: { clientId: 'demo', clientSecret: 'demo-secret', username: 'alice', password: 'pw' },
    });
    const error = await outcome(client.get('/v1/me'));
    expect(error).toMatchObject({ reason: 'issuer' });
    expect(hostile.received.map((r) => r.target)).toEqual([
      '/.well-known/oauth-authorization-server',
    ]);
  });

  it('sends the token request to a token_endpoint on an origin listed in oauth.allowedOrigins', async () => {
    behave = (req, res) =>
      req.target.startsWith('/.well-known')
        ? json(res, { issuer: hostile.origin, token_endpoint: `${collector.origin}/token` })
        : json(res, { ok: true });
    const client = createClient({
      baseUrl: hostile.origin,
      oauth: {
        clientId: 'demo',
        clientSecret: 'demo-secret',
        username: 'alice',
        password: 'pw',
        allowedOrigins: [collector.origin],
      },
    });
    expect(await client.get('/v1/me')).toEqual({ ok: true });
    expect(collector.received.map((r) => r.target)).toEqual(['/token']);
    expect(hostile.received.at(-1)?.headers.authorization).toBe('Bearer x');
  });

  it('never follows a redirect of the token endpoint: the password stays unsent', async () => {
    behave = (req, res) =>
      req.target === '/token'
        ? res.writeHead(307, { location: `${collector.origin}/token` }).end()
        : json(res, {});
    const client = createClient({
      baseUrl: hostile.origin,
      oauth: { clientId: 'demo', username: 'alice', password: 'pw', tokenUrl: '/token' },
    });
    const error = await outcome(client.get('/v1/me'));
    expect(error).toMatchObject({ reason: 'redirects' });
    expect(collector.received).toEqual([]);
  });
});

describe('sign-in answers belong to the sign-in begun and to its issuer', () => {
  const app = 'https://app.example.com/signed-in';
  const metadata =
    (authorize: string): Handler =>
    (req, res) =>
      req.target.startsWith('/.well-known')
        ? json(res, {
            issuer: hostile.origin,
            authorization_endpoint: authorize,
            token_endpoint: `${hostile.origin}/token`,
          })
        : json(res, { access_token: 'x', token_type: 'Bearer' });
  const browser = () =>
    createClient({ baseUrl: hostile.origin, oauth: { clientId: 'spa', redirectUri: app } });

  it('refuses an answer whose iss is another issuer, and redeems nothing (RFC 9207 §2.4)', async () => {
    behave = metadata(`${hostile.origin}/authorize`);
    const client = browser();
    const state = new URL(await client.beginSignIn()).searchParams.get('state');
    const answer = `${app}?code=stolen&state=${state}&iss=${encodeURIComponent(collector.origin)}`;
    expect(await outcome(client.completeSignIn(answer))).toMatchObject({ reason: 'issuer' });
    expect(hostile.received.map((r) => r.target)).not.toContain('/token');
  });

  it('refuses an answer with a state it never sent (RFC 6749 §10.12)', async () => {
    behave = metadata(`${hostile.origin}/authorize`);
    const client = browser();
    await client.beginSignIn();
    const answer = `${app}?code=forged&state=made-up&iss=${encodeURIComponent(hostile.origin)}`;
    expect(await outcome(client.completeSignIn(answer))).toMatchObject({ reason: 'sign-in' });
    expect(hostile.received.map((r) => r.target)).not.toContain('/token');
  });

  it('refuses an authorization_endpoint on another origin', async () => {
    behave = metadata(`${collector.origin}/authorize`);
    expect(await outcome(browser().beginSignIn())).toMatchObject({ reason: 'origin' });
  });
});

describe('no downgrade from https to http', () => {
  let tls: Recorder & { ca: string };
  let tlsBehave: Handler = (_req, res) => json(res, {});
  beforeAll(async () => {
    tls = await startTlsRecorder((req, res) => tlsBehave(req, res));
  });
  afterAll(async () => {
    await tls.close();
  });

  it('refuses a Link from an https service to http, even on the same host (RFC 6454 §4)', async () => {
    const plain = collector.origin.replace('127.0.0.1', 'localhost');
    tlsBehave = (_req, res) =>
      json(
        res,
        { books: [{ id: 'emma' }], hasNext: true },
        {
          link: `<${plain}/v1/books?page=2>; rel="next"`,
        },
      );
    const client = createClient({ baseUrl: tls.origin, ...secrets, fetch: fetchTrusting(tls.ca) });
    const error = await outcome(pageAll(client));
    expect(error).toMatchObject({ reason: 'downgrade' });
    expect(tls.received[0]?.headers.authorization).toBe('Bearer secret-token');
    expect(collector.received).toEqual([]);
  });

  it('refuses a redirect from https to http', async () => {
    tlsBehave = (_req, res) =>
      res.writeHead(301, { location: `${collector.origin}/v1/books` }).end();
    const client = createClient({ baseUrl: tls.origin, ...secrets, fetch: fetchTrusting(tls.ca) });
    const error = await outcome(client.get('/v1/books'));
    expect(error).toMatchObject({ reason: 'downgrade' });
    expect(collector.received).toEqual([]);
  });

  it('refuses a token_endpoint on plain http in the metadata of an https issuer', async () => {
    tlsBehave = (_req, res) =>
      json(res, {
        issuer: tls.origin,
        token_endpoint: `${tls.origin.replace('https:', 'http:')}/token`,
      });
    const client = createClient({
      baseUrl: tls.origin,
      oauth: { clientId: 'demo', clientSecret: 'demo-secret' },
      fetch: fetchTrusting(tls.ca),
    });
    const error = await outcome(client.get('/v1/me'));
    expect(error).toMatchObject({ reason: 'downgrade' });
    expect(error).not.toBeInstanceOf(ApiResponseError);
  });
});

describe('the options that say where credentials may go', () => {
  const base = 'https://api.example.com';
  it.each([
    ['followOrigins with a path', { baseUrl: base, followOrigins: ['https://cdn.example.com/x'] }],
    ['followOrigins not a list', { baseUrl: base, followOrigins: 'https://cdn.example.com' }],
    [
      'oauth.allowedOrigins of a non-URL',
      { baseUrl: base, oauth: { clientId: 'a', allowedOrigins: ['auth'] } },
    ],
    [
      'oauth.issuer with a query',
      { baseUrl: base, oauth: { clientId: 'a', issuer: 'https://auth.example.com/?x=1' } },
    ],
    ['oauth.redirectUri relative', { baseUrl: base, oauth: { clientId: 'a', redirectUri: '/cb' } }],
    [
      'oauth.redirectUri with a password',
      {
        baseUrl: base,
        oauth: {
          clientId: 'a',
          redirectUri: 'https://app.example.com/cb',
          username: 'u',
          password: 'p',
        },
      },
    ],
    [
      'oauth.storage without its methods',
      {
        baseUrl: base,
        oauth: { clientId: 'a', redirectUri: 'https://app.example.com/cb', storage: {} },
      },
    ],
    ['maxBodySize negative', { baseUrl: base, maxBodySize: -1 }],
  ])('refuses %s with a TypeError when the client is made', (_label, options) => {
    expect(() => createClient(options as never)).toThrow(TypeError);
  });

  it('refuses beginSignIn without a redirectUri', async () => {
    const client = createClient({ baseUrl: base, oauth: { clientId: 'a', clientSecret: 's' } });
    await expect(client.beginSignIn()).rejects.toThrow(/redirectUri/);
  });
});
