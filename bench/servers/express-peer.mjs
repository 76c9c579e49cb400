/**
 * express-peer: Express 5 as users assemble it: helmet, cors, a jose bearer check, express-rate-
 * limit per user, and Express's own ETag and 304 (`res.json` sends a weak ETag and answers a
 * fresh request with 304).
 */
import cors from 'cors';
import express from 'express';
import rateLimit from 'express-rate-limit';
import helmet from 'helmet';
import { AUDIENCE, LIMIT, ORIGIN, verifyBearer, WINDOW_MS } from './_auth.mjs';
import { HOST, PORT, payload, ready } from './_server.mjs';

const app = express();
app.disable('x-powered-by');
app.use(helmet());
app.use(cors({ origin: ORIGIN }));
app.use(async (req, res, next) => {
  const claims = await verifyBearer(req.headers.authorization);
  if (claims === undefined) {
    res.set('www-authenticate', `Bearer realm="${AUDIENCE}"`);
    res.status(401).json({ errors: [{ message: 'Authentication is required.', code: 40100 }] });
    return;
  }
  req.auth = claims;
  next();
});
app.use(
  rateLimit({
    windowMs: WINDOW_MS,
    limit: LIMIT,
    standardHeaders: 'draft-7',
    legacyHeaders: false,
    keyGenerator: (req) => req.auth.sub,
  }),
);
app.get('/v1/books', (_req, res) => {
  res.json(payload);
});

const server = app.listen(PORT, HOST, () => ready(server.address().port));
