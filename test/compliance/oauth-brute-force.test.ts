/** The token endpoint's own count of failed logins, per username and per client, on every host. */
import { expect, it } from 'vitest';
import { describeMatrix } from '../conformance/_matrix.ts';
import { basic, oauthApp, oauthOptions, postForm } from './_oauth-app.ts';

const limits = { maxFailures: 3, maxClientFailures: 5, windowSeconds: 60 };

describeMatrix(
  'OAuth brute-force counter',
  () => oauthApp(oauthOptions({ bruteForce: limits })).app,
  (served) => {
    it('answers 429 with Retry-After once a username had too many wrong passwords, the right one included (RFC 6749 §4.3.2, RFC 9700 §2.4)', async () => {
      for (let i = 0; i < 3; i++) {
        const res = await postForm(served, 'grant_type=password&username=alice&password=guess');
        expect(res.status).toBe(400);
      }
      const locked = await postForm(
        served,
        'grant_type=password&username=alice&password=wonderland',
      );
      expect(locked.status).toBe(429);
      expect(locked.headers.get('retry-after')).toBe('60');
      expect(locked.headers.get('cache-control')).toBe('no-store');
      expect(await locked.json()).toMatchObject({
        errors: [{ code: 42900 }],
        error: 'invalid_request',
      });
      // Counted per username: the case of the name does not get around it, and bob is unaffected.
      const cased = await postForm(
        served,
        'grant_type=password&username=ALICE&password=wonderland',
      );
      expect(cased.status).toBe(429);
      const bob = await postForm(served, 'grant_type=password&username=bob&password=builder');
      expect(bob.status).toBe(200);
    });

    it('answers 429 once a client had too many failed logins (RFC 6749 §2.3.1)', async () => {
      // The client has 3 failures from alice's guesses above; two wrong secrets make 5.
      for (let i = 0; i < 2; i++) {
        const res = await postForm(
          served,
          'grant_type=client_credentials',
          basic('demo-client', 'guess'),
        );
        expect(res.status).toBe(401);
      }
      const locked = await postForm(served, 'grant_type=client_credentials');
      expect(locked.status).toBe(429);
      const other = await postForm(
        served,
        'grant_type=client_credentials',
        basic('odd client:1', 'p@ss word+%:é'),
      );
      expect(other.status).toBe(200);
    });
  },
);
