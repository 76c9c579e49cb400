/**
 * The tests' own json-server-like API: an Express app behaving as json-server 0.17
 * does with its defaults (CORS reflecting any origin with credentials, no-cache headers, bare
 * arrays, `{}` for a missing record, 201 for any POST whatever its type, 200 `{}` for a delete),
 * with the violations the auditor must find listed beside it in five-apis.test.ts.
 */
import cors from 'cors';
import express from 'express';
import { listen, type Started } from './_listen.ts';

/** Starts the app on port 0. */
export function startJsonServerLike(): Promise<Started> {
  const app = express();
  app.set('env', 'test');
  const db = {
    posts: [{ id: 1, title: 'json-server', author: 'typicode' }],
    comments: [{ id: 1, body: 'some comment', postId: 1 }],
  };
  // json-server's defaults: CORS for any origin, with credentials; never cached.
  app.use(cors({ origin: true, credentials: true }));
  app.use((_req, res, next) => {
    res.set({ 'cache-control': 'no-cache', pragma: 'no-cache', expires: '-1' });
    next();
  });
  app.use(express.json());
  app.use(express.urlencoded({ extended: false }));
  for (const name of ['posts', 'comments'] as const) {
    const rows = db[name] as { id: number }[];
    app.get(`/${name}`, (_req, res) => {
      res.jsonp(rows);
    });
    app.get(`/${name}/:id`, (req, res) => {
      const row = rows.find((r) => String(r.id) === req.params.id);
      res.status(row ? 200 : 404).jsonp(row ?? {});
    });
    app.post(`/${name}`, (req, res) => {
      // Whatever the media type: a body it could not parse is an empty record.
      const row = { ...(typeof req.body === 'object' ? req.body : {}), id: rows.length + 1 };
      rows.push(row);
      res.status(201).jsonp(row);
    });
    app.delete(`/${name}/:id`, (req, res) => {
      const at = rows.findIndex((r) => String(r.id) === req.params.id);
      if (at !== -1) rows.splice(at, 1);
      res.status(at === -1 ? 404 : 200).jsonp({});
    });
  }
  app.use((_req, res) => {
    res.status(404).jsonp({});
  });
  return listen(app);
}
