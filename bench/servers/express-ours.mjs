/**
 * express-ours: the package's Express adapter in Express 5, peer of `express-bare`.
 *
 * Expects `dist/express.mjs` (built from the Express adapter) to export
 * `toExpressMiddleware(api)`, returning `{ before, mount, after }`: `before` goes first,
 * `mount(app)` puts the route table on Express's router and `after` goes last, as in the
 * adapter's documented example, which this file follows. The harness skips this target, without
 * loading this file, while `dist/express.mjs` is missing.
 */
import express from 'express';
import { toExpressMiddleware } from '../../dist/express.mjs';
import { conventions } from '../../dist/index.mjs';
import { HOST, PORT, payload, ready } from './_server.mjs';

const api = conventions({ routes: { '/v1/books': { GET: () => payload } } });
const c = toExpressMiddleware(api);

const app = express();
app.disable('x-powered-by');
app.set('case sensitive routing', true).set('strict routing', true);
app.use(c.before);
c.mount(app);
app.use(c.after);

const server = app.listen(PORT, HOST, () => ready(server.address().port));
