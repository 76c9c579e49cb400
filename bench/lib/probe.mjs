/**
 * What a target is asked, and the check that it answers what it should before it is measured:
 * a target only counts if it serves the page its peers serve, with the status the run expects.
 */
import http from 'node:http';
import { isDeepStrictEqual } from 'node:util';
import { payloadKinds } from '../servers/_payload.mjs';
import { ORIGIN } from './tokens.mjs';

export const HOST = '127.0.0.1';
export const ROUTE = '/v1/books';

/** One request on a fresh connection, so nothing lingers in a keep-alive pool. */
export function request(port, { method = 'GET', path = ROUTE, headers = {}, body } = {}) {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: HOST, port, path, method, agent: false, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => {
        text += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: text }));
      res.on('error', reject);
    });
    req.setTimeout(10_000, () => req.destroy(new Error('no answer within 10 s')));
    req.on('error', reject);
    req.end(body);
  });
}

/** The bookshelf's own token for alice (spec 4.9), when it asks for one. */
async function bookshelfToken(port) {
  const basic = Buffer.from('demo-client:demo-secret').toString('base64');
  const res = await request(port, {
    method: 'POST',
    path: '/v1/oauth2/token',
    headers: {
      authorization: `Basic ${basic}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=password&username=alice&password=wonderland&scope=books%3Aread',
  });
  if (res.status !== 200) {
    throw new Error(
      `the bookshelf asks for a token, and its token endpoint answered ${res.status}: ${res.body.slice(0, 300)}`,
    );
  }
  return JSON.parse(res.body).access_token;
}

function checkBody(target, res) {
  let body;
  try {
    body = JSON.parse(res.body);
  } catch {
    throw new Error(`GET ${ROUTE} answered a body that is not JSON: ${res.body.slice(0, 200)}`);
  }
  if (target.expect === 'payload') {
    const expected = JSON.parse(JSON.stringify(payloadKinds[target.payload]()));
    if (!isDeepStrictEqual(body, expected)) {
      throw new Error(
        `GET ${ROUTE} answered JSON that differs from the "${target.payload}" payload of bench/servers/_payload.mjs`,
      );
    }
  } else if (!Array.isArray(body.books) || body.books.length !== 20) {
    throw new Error(`GET ${ROUTE} answered no page of 20 books: ${res.body.slice(0, 200)}`);
  }
}

/**
 * The request the load generator sends to `target` on `port` (`{ url, headers, tokensFile }`),
 * after one check that the server answers it as it should: the payload, or a 304 to the ETag
 * it gave.
 */
export async function prepareRequest(target, port, tokens) {
  const headers = { accept: 'application/json' };
  const ask = target.request;
  const path = ask.path ?? ROUTE;
  if (ask.origin) headers.origin = ORIGIN;
  if (ask.auth === 'repeat') headers.authorization = `Bearer ${tokens.repeat}`;
  if (ask.auth === 'fresh') headers.authorization = `Bearer ${tokens.first}`;
  let res = await request(port, { path, headers });
  if (ask.auth === 'bookshelf' && res.status === 401) {
    headers.authorization = `Bearer ${await bookshelfToken(port)}`;
    res = await request(port, { path, headers });
  }
  if (res.status !== 200) {
    throw new Error(`GET ${ROUTE} answered ${res.status}, not 200: ${res.body.slice(0, 300)}`);
  }
  checkBody(target, res);
  if (ask.revalidate) {
    const etag = res.headers.etag;
    if (!etag) {
      // Not a fault of the harness: the stack has no ETag yet (its feature is not built).
      throw Object.assign(new Error(`GET ${ROUTE} sent no ETag: nothing to revalidate`), {
        skip: true,
      });
    }
    headers['if-none-match'] = etag;
    const again = await request(port, { path, headers });
    if (again.status !== 304) {
      throw new Error(`GET ${ROUTE} with If-None-Match: ${etag} answered ${again.status}, not 304`);
    }
  }
  const fresh = ask.auth === 'fresh';
  if (fresh) delete headers.authorization;
  return {
    url: `http://${HOST}:${port}${path}`,
    headers,
    tokensFile: fresh ? tokens.poolFile : undefined,
    expectStatus: ask.revalidate ? 304 : 200,
  };
}
