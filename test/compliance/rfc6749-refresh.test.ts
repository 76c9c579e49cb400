/** Refresh tokens, RFC 6749 §6 and RFC 9700 §4.14.2: rotation, families, scope, concurrency. */
import { MemoryStore } from 'api-conventions';
import { expect, it } from 'vitest';
import { describeMatrix, type Served } from '../conformance/_matrix.ts';
import { basic, oauthApp, oauthOptions, postForm, testTokens } from './_oauth-app.ts';

async function login(
  served: Served,
  scope = '',
): Promise<{ refresh_token: string; access_token: string }> {
  const res = await postForm(
    served,
    `grant_type=password&username=alice&password=wonderland${scope ? `&scope=${encodeURIComponent(scope)}` : ''}`,
  );
  expect(res.status).toBe(200);
  return res.json();
}

const refresh = (served: Served, token: string, extra = '') =>
  postForm(served, `grant_type=refresh_token&refresh_token=${encodeURIComponent(token)}${extra}`);

/**
 * Two concurrent uses of one refresh token: at most one succeeds, the other is a replay that
 * revokes the family (RFC 9700 §4.14.2), so whatever the winner got is dead too (or it was
 * refused, when the revocation came before its tokens were out).
 */
async function expectNothingLive(served: Served, answers: Response[]) {
  expect(answers.filter((r) => r.status === 200).length).toBeLessThanOrEqual(1);
  expect(answers.some((r) => r.status === 400)).toBe(true);
  for (const answer of answers.filter((r) => r.status === 200)) {
    const { access_token, refresh_token } = await answer.json();
    expect((await refresh(served, refresh_token)).status).toBe(400);
    const seen = await postForm(
      served,
      `token=${access_token}`,
      undefined,
      '/v1/oauth2/introspect',
    );
    expect(await seen.json()).toEqual({ active: false });
  }
}

describeMatrix(
  'OAuth refresh tokens',
  () => oauthApp().app,
  (served) => {
    it('rotates the refresh token on every use (RFC 6749 §6, RFC 9700 §4.14.2)', async () => {
      const first = await login(served);
      const res = await refresh(served, first.refresh_token);
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      const second = await res.json();
      expect(second.refresh_token).toBeDefined();
      expect(second.refresh_token).not.toBe(first.refresh_token);
      expect(second.access_token).not.toBe(first.access_token);
      expect((await refresh(served, second.refresh_token)).status).toBe(200);
    });

    it('revokes the whole family when a rotated token is used again (RFC 9700 §4.14.2)', async () => {
      const first = await login(served);
      const second = await (await refresh(served, first.refresh_token)).json();
      const replay = await refresh(served, first.refresh_token);
      expect(replay.status).toBe(400);
      expect(await replay.json()).toMatchObject({
        error: 'invalid_grant',
        errors: [{ code: 40041 }],
      });
      // The legitimate holder's newer token died with the family.
      const after = await refresh(served, second.refresh_token);
      expect(after.status).toBe(400);
      expect((await after.json()).error).toBe('invalid_grant');
    });

    it('revokes the family when a spent token comes back with a wider scope: the reuse check comes first (RFC 9700 §4.14.2)', async () => {
      const first = await login(served, 'books:read');
      const second = await (await refresh(served, first.refresh_token)).json();
      const replay = await refresh(served, first.refresh_token, '&scope=books:read%20books:write');
      expect(replay.status).toBe(400);
      expect((await replay.json()).error).toBe('invalid_grant');
      const after = await refresh(served, second.refresh_token);
      expect(after.status).toBe(400);
      expect((await after.json()).error).toBe('invalid_grant');
    });

    it('allows a narrower scope and refuses a wider one with invalid_scope (RFC 6749 §6)', async () => {
      const narrowGrant = await login(served, 'books:read');
      const wider = await refresh(
        served,
        narrowGrant.refresh_token,
        '&scope=books:read%20books:write',
      );
      expect(wider.status).toBe(400);
      expect((await wider.json()).error).toBe('invalid_scope');
      // The refused request did not use the token up.
      expect((await refresh(served, narrowGrant.refresh_token)).status).toBe(200);

      const full = await login(served);
      const narrower = await refresh(served, full.refresh_token, '&scope=books:read');
      expect(narrower.status).toBe(200);
      const body = await narrower.json();
      expect(body.scope).toBeUndefined(); // the scope asked for (RFC 6749 §5.1)
      // The new refresh token keeps the original grant (RFC 6749 §6).
      const back = await refresh(served, body.refresh_token, '&scope=books:read%20books:write');
      expect(back.status).toBe(200);
    });

    it('binds a refresh token to its client (RFC 6749 §6, §10.4)', async () => {
      const { refresh_token } = await login(served);
      const res = await postForm(
        served,
        `grant_type=refresh_token&refresh_token=${refresh_token}`,
        basic('demo-web', 'demo-web-secret'),
      );
      expect(res.status).toBe(400);
      expect((await res.json()).error).toBe('invalid_grant');
      expect((await refresh(served, refresh_token)).status).toBe(200);
    });

    it('lets at most one of two concurrent refreshes with one token succeed, and nothing stay live (RFC 9700 §4.14.2)', async () => {
      const { refresh_token } = await login(served);
      const answers = await Promise.all([
        refresh(served, refresh_token),
        refresh(served, refresh_token),
      ]);
      await expectNothingLive(served, answers);
    });
  },
);

describeMatrix(
  'OAuth refresh tokens across two instances sharing a store',
  () => {
    // Built twice per host below: this instance and a second one share `store` and the token keys.
    return shared().first;
  },
  (served) => {
    it('lets at most one of two concurrent refreshes succeed across two instances, and nothing stay live (RFC 9700 §4.14.2)', async () => {
      const second = await startSecond(served.adapter);
      const viaSecond = (body: string) =>
        fetch(`http://127.0.0.1:${second.port}/v1/oauth2/token`, {
          method: 'POST',
          headers: {
            authorization: basic('demo-client', 'demo-secret'),
            'content-type': 'application/x-www-form-urlencoded',
          },
          body,
        });
      try {
        // A token issued by one instance is refreshed by the other: the state is shared.
        const issued = await login(served);
        const moved = await viaSecond(
          `grant_type=refresh_token&refresh_token=${issued.refresh_token}`,
        );
        expect(moved.status).toBe(200);
        const { refresh_token: next } = await moved.json();
        expect(
          (await postForm(served, `grant_type=refresh_token&refresh_token=${next}`)).status,
        ).toBe(200);

        for (let round = 0; round < 5; round++) {
          const { refresh_token } = await login(served);
          const body = `grant_type=refresh_token&refresh_token=${refresh_token}`;
          const answers = await Promise.all([postForm(served, body), viaSecond(body)]);
          await expectNothingLive(served, answers);
        }
      } finally {
        await second.close();
      }
    });
  },
);

let pair:
  | { first: ReturnType<typeof oauthApp>['app']; second: ReturnType<typeof oauthApp>['app'] }
  | undefined;

/** Two instances of one configuration: one store, one token side. */
function shared() {
  const store = new MemoryStore();
  const { side } = testTokens();
  pair = {
    first: oauthApp(oauthOptions({}, store, side)).app,
    second: oauthApp(oauthOptions({}, store, side)).app,
  };
  return pair;
}

async function startSecond(adapter: Served['adapter']) {
  const { loadHost } = await import('../../examples/bookshelf/hosts/host.ts');
  const serve = await loadHost(adapter);
  return serve(pair!.second, { port: 0, host: '127.0.0.1' });
}
