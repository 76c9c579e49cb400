/**
 * hono-peer: Hono on @hono/node-server as users assemble it: secure-headers, cors, jwt (EdDSA
 * with the run's public key), hono-rate-limiter per user, and etag (304 on a match).
 */
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { cors } from 'hono/cors';
import { etag } from 'hono/etag';
import { jwt } from 'hono/jwt';
import { secureHeaders } from 'hono/secure-headers';
import { rateLimiter } from 'hono-rate-limiter';
import { AUDIENCE, ISSUER, JWK, LIMIT, ORIGIN, WINDOW_MS } from './_auth.mjs';
import { HOST, PORT, payload, ready } from './_server.mjs';

const app = new Hono();
app.use('*', secureHeaders());
app.use('*', cors({ origin: ORIGIN }));
app.use(
  '*',
  jwt({
    secret: JWK,
    alg: 'EdDSA',
    verification: { iss: ISSUER, aud: AUDIENCE, typ: 'at+jwt' },
  }),
);
app.use(
  '*',
  rateLimiter({
    windowMs: WINDOW_MS,
    limit: LIMIT,
    standardHeaders: 'draft-7',
    keyGenerator: (c) => c.get('jwtPayload').sub,
  }),
);
app.use('*', etag({ weak: true }));
app.get('/v1/books', (c) => c.json(payload));

serve({ fetch: app.fetch, hostname: HOST, port: PORT }, (info) => ready(info.port));
