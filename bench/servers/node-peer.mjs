/**
 * node-peer: a hand-written node:http stack, as a careful user writes one: the spec's security
 * headers, CORS for one origin, a jose bearer check on every request, a Map rate limiter per
 * user, the JSON serialized per request, a weak ETag over it and 304 on a match.
 */
import { createHash } from 'node:crypto';
import http from 'node:http';
import { AUDIENCE, LIMIT, ORIGIN, verifyBearer, WINDOW_MS } from './_auth.mjs';
import { HOST, PORT, payload, ready } from './_server.mjs';

// Spec 4.8.
const security = {
  'x-content-type-options': 'nosniff',
  'x-xss-protection': '1; mode=block',
  'x-frame-options': 'deny',
  'content-security-policy': "default-src 'none'",
};
const windows = new Map();

function fail(res, status, message, extra = {}) {
  const body = JSON.stringify({ errors: [{ message, code: status * 100 }] });
  res.writeHead(status, {
    ...security,
    ...extra,
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
  });
  res.end(body);
}

const server = http.createServer(async (req, res) => {
  const cors = {};
  if (req.headers.origin === ORIGIN) {
    cors['access-control-allow-origin'] = ORIGIN;
    cors['access-control-expose-headers'] = 'ETag, Link, X-RateLimit-Limit, X-RateLimit-Remaining';
  }
  cors.vary = 'Origin';
  if (req.method !== 'GET' || req.url !== '/v1/books') {
    fail(res, 404, 'Not found.', cors);
    return;
  }
  const claims = await verifyBearer(req.headers.authorization);
  if (claims === undefined) {
    fail(res, 401, 'Authentication is required.', {
      ...cors,
      'www-authenticate': `Bearer realm="${AUDIENCE}"`,
    });
    return;
  }
  const now = Date.now();
  let window = windows.get(claims.sub);
  if (window === undefined || window.resetAt <= now) {
    window = { count: 0, resetAt: now + WINDOW_MS };
    windows.set(claims.sub, window);
  }
  window.count++;
  const limits = {
    'x-ratelimit-limit': String(LIMIT),
    'x-ratelimit-remaining': String(Math.max(0, LIMIT - window.count)),
  };
  if (window.count > LIMIT) {
    fail(res, 429, 'Too many requests.', { ...cors, ...limits });
    return;
  }
  const body = JSON.stringify(payload);
  const etag = `W/"${createHash('sha1').update(body).digest('base64url')}"`;
  const headers = {
    ...security,
    ...cors,
    ...limits,
    'cache-control': 'private, no-cache',
    etag,
  };
  if (req.headers['if-none-match'] === etag) {
    res.writeHead(304, headers);
    res.end();
    return;
  }
  res.writeHead(200, {
    ...headers,
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
  });
  res.end(body);
});

server.listen(PORT, HOST, () => ready(server.address().port));
