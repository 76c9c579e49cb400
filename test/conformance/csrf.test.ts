import {
  type Conventions,
  conventions,
  created,
  csrf,
  MemoryStore,
  type RequestContext,
  readCookie,
  unauthorized,
} from 'api-conventions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Running } from '../../examples/bookshelf/hosts/host.ts';
import { serve } from '../../examples/bookshelf/hosts/node.ts';
import { describeMatrix } from './_matrix.ts';
import { ownApi } from './_security.ts';

const secret = 'a test secret of thirty-two bytes or more, never used in production';
const app = 'https://app.example.com';

/** A cookie-session API: a token endpoint, a JSON route and a form route behind csrf(). */
function csrfApi(store: MemoryStore): Conventions {
  const protection = csrf({ secret, store, trustedOrigins: [app] });
  const sessionOf = (ctx: RequestContext) => {
    const id = readCookie(ctx.headers.get('cookie'), '__Host-session');
    if (id === undefined) throw unauthorized('Sign in first.');
    return id;
  };
  return conventions({
    routes: {
      '/v1/csrf-token': {
        GET: async (ctx) => ({
          token: ctx.query.has('once')
            ? await protection.issueOneTimeToken(sessionOf(ctx))
            : await protection.issueToken(sessionOf(ctx)),
        }),
      },
      '/v1/notes': { POST: () => created('/v1/notes/1', { saved: true }) },
      '/v1/forms': {
        POST: {
          handler: (ctx) => ({ fields: Object.keys(ctx.body as object) }),
          config: { accepts: ['form'] },
        },
      },
    },
    plugins: [protection],
  });
}

const cookie = (session: string) => ({ cookie: `theme=dark; __Host-session=${session}` });
const json = { 'content-type': 'application/json' };

describeMatrix(
  'CSRF for cookie-authenticated requests',
  () => csrfApi(new MemoryStore()),
  (served) => {
    const tokenFor = async (session: string, once = false) => {
      const res = await served.fetch(`/v1/csrf-token${once ? '?once' : ''}`, {
        headers: cookie(session),
      });
      expect(res.status).toBe(200);
      return (await res.json()).token as string;
    };
    const post = (headers: Record<string, string>, body = '{"text":"hi"}') =>
      served.fetch('/v1/notes', { method: 'POST', headers: { ...json, ...headers }, body });
    const codeOf = async (res: Response) => (await res.json()).errors[0].code;

    it('refuses a session request without a token with 403 and the error body (spec 4.8)', async () => {
      const res = await post(cookie('alice-1'));
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual({
        errors: [
          {
            message:
              'This request uses a session cookie and needs a CSRF token in the x-csrf-token header (or the _csrf form field).',
            code: 40305,
          },
        ],
      });
    });

    it('accepts the session’s token in the header, again and again (spec 4.8)', async () => {
      const token = await tokenFor('alice-1');
      for (let i = 0; i < 2; i++) {
        const res = await post({ ...cookie('alice-1'), 'x-csrf-token': token });
        expect(res.status).toBe(201);
      }
    });

    it('gives a new-looking token each time, all valid for the session', async () => {
      const [a, b] = [await tokenFor('alice-1'), await tokenFor('alice-1')];
      expect(a).not.toBe(b);
      expect((await post({ ...cookie('alice-1'), 'x-csrf-token': b })).status).toBe(201);
    });

    it('refuses a token tossed from another session’s cookie/header pair (spec 4.8)', async () => {
      const bobs = await tokenFor('bob-7');
      const res = await post({ ...cookie('alice-1'), 'x-csrf-token': bobs });
      expect(res.status).toBe(403);
      expect(await codeOf(res)).toBe(40306);
    });

    it.each([
      ['garbage', 'not-a-token'],
      ['a forged MAC', 's.AAAAAAAAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'],
      ['an unknown one-time token', 'o.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'],
      ['an overlong value', `s.${'A'.repeat(5000)}.A`],
    ])('refuses %s with 403 (40306)', async (_what, token) => {
      const res = await post({ ...cookie('alice-1'), 'x-csrf-token': token });
      expect(res.status).toBe(403);
      expect(await codeOf(res)).toBe(40306);
    });

    it('accepts a one-time token once and refuses its replay (spec 4.8)', async () => {
      const token = await tokenFor('alice-1', true);
      const first = await post({ ...cookie('alice-1'), 'x-csrf-token': token });
      expect(first.status).toBe(201);
      const replay = await post({ ...cookie('alice-1'), 'x-csrf-token': token });
      expect(replay.status).toBe(403);
      expect(await codeOf(replay)).toBe(40306);
    });

    it('refuses another session’s one-time token, which is then spent', async () => {
      const token = await tokenFor('bob-7', true);
      const tossed = await post({ ...cookie('alice-1'), 'x-csrf-token': token });
      expect(tossed.status).toBe(403);
      const owner = await post({ ...cookie('bob-7'), 'x-csrf-token': token });
      expect(owner.status).toBe(403);
    });

    it('reads the token from the _csrf field of a form, and keeps it from the handler', async () => {
      const token = await tokenFor('alice-1');
      const body = new URLSearchParams({ title: 'x', _csrf: token });
      const res = await served.fetch('/v1/forms', {
        method: 'POST',
        headers: cookie('alice-1'),
        body,
      });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ fields: ['title'] });
      const without = await served.fetch('/v1/forms', {
        method: 'POST',
        headers: cookie('alice-1'),
        body: new URLSearchParams({ title: 'x' }),
      });
      expect(without.status).toBe(403);
      expect(await codeOf(without)).toBe(40305);
    });

    it.each([
      ['a foreign Origin', { origin: 'https://evil.example.org' }],
      ['a look-alike Origin', { origin: 'https://app.example.com.evil.io' }],
      ['Origin: null', { origin: 'null' }],
      ['Sec-Fetch-Site: cross-site', { 'sec-fetch-site': 'cross-site' }],
      [
        'Sec-Fetch-Site: same-site',
        { 'sec-fetch-site': 'same-site', origin: 'https://x.example.com' },
      ],
    ])(
      'refuses a state-changing request with %s even with a valid token (40304)',
      async (_w, headers) => {
        const token = await tokenFor('alice-1');
        const res = await post({ ...cookie('alice-1'), 'x-csrf-token': token, ...headers });
        expect(res.status).toBe(403);
        expect(await codeOf(res)).toBe(40304);
      },
    );

    it('refuses a cross-site request that carries no session too, before routing', async () => {
      const res = await served.fetch('/v1/nothing-here', {
        method: 'POST',
        headers: { origin: 'https://evil.example.org', 'sec-fetch-site': 'cross-site' },
      });
      expect(res.status).toBe(403);
      expect(await codeOf(res)).toBe(40304);
    });

    it('admits the trusted origin, and the service’s own origin', async () => {
      const token = await tokenFor('alice-1');
      const trusted = await post({
        ...cookie('alice-1'),
        'x-csrf-token': token,
        origin: app,
        'sec-fetch-site': 'cross-site',
      });
      expect(trusted.status).toBe(201);
      const own = await post({
        ...cookie('alice-1'),
        'x-csrf-token': token,
        origin: served.url('').replace(/\/$/, ''),
      });
      expect(own.status).toBe(201);
      const sameOrigin = await post({
        ...cookie('alice-1'),
        'x-csrf-token': token,
        'sec-fetch-site': 'same-origin',
      });
      expect(sameOrigin.status).toBe(201);
    });

    it('exempts bearer-token requests, cross-site or not (spec 4.8)', async () => {
      const res = await post({
        ...cookie('alice-1'),
        authorization: 'Bearer some-token',
        origin: 'https://evil.example.org',
        'sec-fetch-site': 'cross-site',
      });
      expect(res.status).toBe(201);
    });

    it('asks nothing of safe methods and of requests without a session', async () => {
      const read = await served.fetch('/v1/csrf-token', {
        headers: { ...cookie('alice-1'), origin: 'https://evil.example.org' },
      });
      expect(read.status).toBe(200);
      expect((await post({})).status).toBe(201);
    });
  },
  ownApi,
);

describe('one-time CSRF tokens shared by two instances (spec 4.8)', () => {
  const store = new MemoryStore();
  let one: Running | undefined;
  let two: Running | undefined;
  beforeAll(async () => {
    one = await serve(csrfApi(store), { port: 0, host: '127.0.0.1' });
    two = await serve(csrfApi(store), { port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await one?.close();
    await two?.close();
    store.close();
  });

  it('redeems at one instance a token issued by the other, once', async () => {
    const at = (r: Running, path: string, init?: RequestInit) =>
      fetch(`http://127.0.0.1:${r.port}${path}`, init);
    const issued = await at(one!, '/v1/csrf-token?once', { headers: cookie('carol-3') });
    const { token } = await issued.json();
    const send = (r: Running) =>
      at(r, '/v1/notes', {
        method: 'POST',
        headers: { ...json, ...cookie('carol-3'), 'x-csrf-token': token },
        body: '{}',
      });
    expect((await send(two!)).status).toBe(201);
    expect((await send(one!)).status).toBe(403);
    expect((await send(two!)).status).toBe(403);
  });
});
