/**
 * express-bare: Express 5 with its defaults and its idiomatic `res.json()` reply.
 */
import express from 'express';
import { HOST, PORT, payload, ready } from './_server.mjs';

const app = express();
app.get('/v1/books', (_req, res) => {
  res.json(payload);
});

const server = app.listen(PORT, HOST, () => ready(server.address().port));
