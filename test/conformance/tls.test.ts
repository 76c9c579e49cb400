/**
 * The bookshelf over real TLS: node:https with a certificate made for this test, and a client
 * that verifies it. HSTS is sent there and never on plain HTTP (spec 4.8, RFC 6797 §7.2).
 */
import { createServer, request as httpsRequest } from 'node:https';
import { toNodeHandler } from 'api-conventions/node';
import { generate } from 'selfsigned';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBookshelf } from '../../examples/bookshelf/app.ts';
import { listen, type Running } from '../../examples/bookshelf/hosts/host.ts';
import { serve as serveHttp } from '../../examples/bookshelf/hosts/node.ts';
import { localCertificate } from '../_tls.ts';
import { expectHeaderSet } from './_security.ts';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A request over HTTPS, trusting only `ca`: a certificate it does not sign is an error. */
function send(
  port: number,
  path: string,
  ca: string,
  { servername = 'localhost', method = 'GET', headers = {}, body = '' } = {} as {
    servername?: string;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
  },
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      { host: '127.0.0.1', port, path, ca, servername, method, headers, rejectUnauthorized: true },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          body += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * alice's bearer token from the bookshelf's token endpoint over HTTPS (spec 4.9), or no header
 * while the bookshelf serves its books without tokens.
 */
async function aliceOver(port: number, ca: string): Promise<Record<string, string>> {
  const res = await send(port, '/v1/oauth2/token', ca, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from('demo-client:demo-secret').toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=password&username=alice&password=wonderland',
  });
  if (res.status === 404) return {};
  expect(res.status).toBe(200);
  expect(res.headers['strict-transport-security']).toBe('max-age=31536000');
  return { authorization: `Bearer ${JSON.parse(res.body).access_token}` };
}

describe('the bookshelf over TLS (spec 4.8)', () => {
  let cert = '';
  let tls: Running | undefined;
  let tlsStrict: Running | undefined;
  let plain: Running | undefined;

  beforeAll(async () => {
    const made = await localCertificate();
    cert = made.cert;
    const options = { key: made.key, cert: made.cert };
    tls = await listen(
      createServer(options, toNodeHandler(createBookshelf())) as never,
      0,
      '127.0.0.1',
    );
    tlsStrict = await listen(
      createServer(
        options,
        toNodeHandler(createBookshelf({ security: { requireHttps: true } })),
      ) as never,
      0,
      '127.0.0.1',
    );
    plain = await serveHttp(createBookshelf({ security: { requireHttps: true } }), {
      port: 0,
      host: '127.0.0.1',
    });
  });

  afterAll(async () => {
    await Promise.all([tls?.close(), tlsStrict?.close(), plain?.close()]);
  });

  it('serves the books over HTTPS to a client that verifies the certificate, with HSTS (RFC 6797 §7.1)', async () => {
    const res = await send(tls!.port, '/v1/books', cert, {
      headers: await aliceOver(tls!.port, cert),
    });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body).books).toHaveLength(20);
    expect(res.headers['strict-transport-security']).toBe('max-age=31536000');
    expectHeaderSet({ headers: res.headers as Record<string, string> });
  });

  it('sends HSTS on an error over HTTPS too (RFC 6797 §8.1)', async () => {
    const res = await send(tls!.port, '/v1/books/no-such-book', cert, {
      headers: await aliceOver(tls!.port, cert),
    });
    expect(res.status).toBe(404);
    expect(res.headers['strict-transport-security']).toBe('max-age=31536000');
  });

  it('is refused by a client that verifies against another authority', async () => {
    const other = await generate([{ name: 'commonName', value: 'localhost' }], {
      keyType: 'ec',
      curve: 'P-256',
    });
    await expect(send(tls!.port, '/v1/books', other.cert)).rejects.toThrow();
  });

  it('is refused by a client that checks the name the certificate was made for', async () => {
    await expect(
      send(tls!.port, '/v1/books', cert, { servername: 'api.example.com' }),
    ).rejects.toThrow(/altnames|does not match|ERR_TLS_CERT_ALTNAME_INVALID/i);
  });

  it('serves HTTPS with requireHttps on, and refuses plain HTTP with 403 and no HSTS (spec 4.8)', async () => {
    const secure = await send(tlsStrict!.port, '/v1/books', cert, {
      headers: await aliceOver(tlsStrict!.port, cert),
    });
    expect(secure.status).toBe(200);
    expect(secure.headers['strict-transport-security']).toBe('max-age=31536000');
    const res = await fetch(`http://127.0.0.1:${plain!.port}/v1/books`, { redirect: 'manual' });
    expect(res.status).toBe(403);
    expect(res.headers.get('location')).toBeNull();
    expect(res.headers.get('strict-transport-security')).toBeNull();
    expect((await res.json()).errors[0].code).toBe(40302);
    expectHeaderSet(res);
  });
});
