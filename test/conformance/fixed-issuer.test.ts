/**
 * The bookshelf as main.ts starts it: one fixed token issuer (its listening origin, or ISSUER),
 * never the host name a request names, so tokens, metadata and revocation agree whatever
 * `Host` a client sends (RFC 8414 §2, RFC 7009 §2, RFC 9068 §4).
 */
import { beforeAll, expect, it } from 'vitest';
import { createBookshelf } from '../../examples/bookshelf/app.ts';
import { describeMatrix, type Served } from './_matrix.ts';
import { rawRequest } from './_raw.ts';

const quiet = { error() {}, warn() {} };
const demo = `Basic ${Buffer.from('demo-client:demo-secret').toString('base64')}`;

let current: Served | undefined;

/** A form POST to `path` sent with `Host: <host>`, which fetch would not send as given. */
function postAs(served: Served, host: string, path: string, body: string) {
  return rawRequest(
    served.port,
    `POST ${path} HTTP/1.1\r\nHost: ${host}\r\nAuthorization: ${demo}\r\n` +
      `Content-Type: application/x-www-form-urlencoded\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `Connection: close\r\n\r\n${body}`,
  );
}

describeMatrix(
  'one token issuer, whatever the Host',
  () =>
    createBookshelf({
      logger: quiet,
      // What main.ts does without ISSUER: the origin the server listens on, once it listens.
      oauth: { issuer: () => current!.url(''), logger: quiet },
    }),
  (served) => {
    beforeAll(() => {
      current = served;
    });
    const otherHost = () => `localhost:${served.port}`;
    const password = 'grant_type=password&username=bob&password=builder';

    it('revokes a token through another host name: a later request with it is 401 (RFC 7009 §2.1)', async () => {
      const issued = await postAs(served, `127.0.0.1:${served.port}`, '/v1/oauth2/token', password);
      expect(issued.status).toBe(200);
      const token = JSON.parse(issued.body).access_token as string;
      const me = () =>
        served.fetchAs('anonymous', '/v1/me', { headers: { authorization: `Bearer ${token}` } });
      expect((await me()).status).toBe(200);

      const revoked = await postAs(served, otherHost(), '/v1/oauth2/revoke', `token=${token}`);
      expect(revoked.status).toBe(200);
      const after = await me();
      expect(after.status).toBe(401);
      expect(after.headers.get('www-authenticate')).toContain('error="invalid_token"');
    });

    it('issues through another host name tokens of its one issuer, which it accepts (RFC 9068 §4)', async () => {
      const issued = await postAs(served, otherHost(), '/v1/oauth2/token', password);
      expect(issued.status).toBe(200);
      const token = JSON.parse(issued.body).access_token as string;
      const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString());
      expect(claims.iss).toBe(served.url(''));
      const me = await served.fetchAs('anonymous', '/v1/me', {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(me.status).toBe(200);
    });

    it('names the same issuer in its metadata whatever the Host (RFC 8414 §2, §3.3)', async () => {
      const res = await rawRequest(
        served.port,
        `GET /.well-known/oauth-authorization-server HTTP/1.1\r\nHost: ${otherHost()}\r\nConnection: close\r\n\r\n`,
      );
      expect(res.status).toBe(200);
      const meta = JSON.parse(res.body);
      expect(meta.issuer).toBe(served.url(''));
      expect(meta.token_endpoint).toBe(served.url('/v1/oauth2/token'));
    });
  },
);
