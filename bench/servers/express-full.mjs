/** express-full: our full stack on the Express 5 adapter, beside express-peer. */
import express from 'express';
import { toExpressMiddleware } from '../../dist/express.mjs';
import { fullStack } from './_full-stack.mjs';
import { HOST, PORT, ready } from './_server.mjs';

const { api, features } = await fullStack();
const c = toExpressMiddleware(api);

const app = express();
app.disable('x-powered-by');
app.set('case sensitive routing', true).set('strict routing', true);
app.use(c.before);
c.mount(app);
app.use(c.after);

const server = app.listen(PORT, HOST, () => ready(server.address().port, features));
