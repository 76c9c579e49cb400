/**
 * The tests' own Express app written the usual way: bare arrays, 200 on create,
 * string errors, an API key, epoch-millisecond dates, a route that throws, an HTML page, no
 * Cache-Control, and an OpenAPI document written by hand without examples. Its violations are
 * listed in five-apis.test.ts.
 */
import express from 'express';
import { listen, type Started } from './_listen.ts';

/** The key its clients send in X-API-Key. */
export const apiKey = 'usual-express-key';

/** Its OpenAPI document, as a swagger-jsdoc user writes it: schemas, no examples, an API key. */
export const usualDocument = {
  openapi: '3.0.3',
  info: { title: 'Users', version: '1.0.0' },
  servers: [{ url: '/' }],
  components: {
    securitySchemes: { ApiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' } },
    schemas: {
      User: {
        type: 'object',
        required: ['id', 'name'],
        properties: {
          id: { type: 'integer' },
          name: { type: 'string' },
          lastLogin: { type: 'integer', description: 'epoch milliseconds' },
        },
      },
      NewUser: {
        type: 'object',
        required: ['name'],
        properties: { name: { type: 'string', minLength: 1 } },
      },
    },
  },
  security: [{ ApiKey: [] }],
  paths: {
    '/v1/users': {
      get: {
        responses: {
          '200': {
            description: 'users',
            content: {
              'application/json': {
                schema: { type: 'array', items: { $ref: '#/components/schemas/User' } },
              },
            },
          },
        },
      },
      post: {
        requestBody: {
          content: { 'application/json': { schema: { $ref: '#/components/schemas/NewUser' } } },
        },
        responses: { '200': { description: 'created' } },
      },
    },
  },
};

/** Starts the app on port 0. */
export function startExpressUsual(): Promise<Started> {
  const app = express();
  app.set('env', 'test');
  const users = [{ id: 1, name: 'Ada', lastLogin: 1_714_550_400_000 }];
  app.use(express.json());
  app.get('/openapi.json', (_req, res) => {
    res.json(usualDocument);
  });
  app.get('/v1/docs', (_req, res) => {
    res.send('<!doctype html><title>Users API</title><h1>Users API</h1>');
  });
  app.use('/v1', (req, res, next) => {
    if (req.get('x-api-key') === apiKey) next();
    else res.status(401).send('Unauthorized');
  });
  app.get('/v1/users', (_req, res) => {
    res.json(users);
  });
  app.get('/v1/users/:id', (req, res) => {
    const user = users.find((u) => String(u.id) === req.params.id);
    if (user) res.json(user);
    else res.status(404).send('User not found');
  });
  app.post('/v1/users', (req, res) => {
    if (typeof req.body?.name !== 'string') {
      res.status(400).send('name is required');
      return;
    }
    const user = { id: users.length + 1, name: req.body.name, lastLogin: Date.now() };
    users.push(user);
    res.json(user);
  });
  app.delete('/v1/users/:id', (req, res) => {
    const at = users.findIndex((u) => String(u.id) === req.params.id);
    if (at !== -1) users.splice(at, 1);
    res.json({ success: true });
  });
  app.get('/v1/reports', () => {
    throw new Error('the report store is down');
  });
  return listen(app);
}
