/** The token endpoint's own count of failed logins, per username and per client, on every host. */
import { expect, it } from 'vitest';
import { describeMatrix } from '../conformance/_matrix.ts';
import { basic, oauthApp, oauthOptions, postForm, users } from './_oauth-app.ts';

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

/** A password check that takes a while, as a real password hash does; it counts its calls. */
function slowUsers() {
  const calls = { checked: 0 };
  const verifyUser = async (username: string, password: string) => {
    calls.checked++;
    await new Promise((resolve) => setTimeout(resolve, 20));
    const user = Object.hasOwn(users, username) ? users[username] : undefined;
    return user && user.password === password
      ? { subject: username, scopes: user.scopes }
      : undefined;
  };
  return { calls, verifyUser };
}

let slow = slowUsers();

describeMatrix(
  'OAuth brute-force counter under concurrent guesses',
  () => {
    slow = slowUsers();
    return oauthApp(oauthOptions({ verifyUser: slow.verifyUser })).app;
  },
  (served) => {
    it('checks at most maxFailures of 200 concurrent guesses and refuses the right password after them with 429 (RFC 6749 §4.3.2, RFC 9700 §2.4)', async () => {
      const calls = slow.calls;
      const guesses = await Promise.all(
        Array.from({ length: 200 }, (_, i) =>
          postForm(served, `grant_type=password&username=alice&password=guess-${i}`),
        ),
      );
      expect(calls.checked).toBeLessThanOrEqual(10);
      expect(guesses.filter((r) => r.status === 400).length).toBeLessThanOrEqual(10);
      const right = await postForm(
        served,
        'grant_type=password&username=alice&password=wonderland',
      );
      expect(right.status).toBe(429);
      expect(calls.checked).toBeLessThanOrEqual(10);
    });
  },
);
