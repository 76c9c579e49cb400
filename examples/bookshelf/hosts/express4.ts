/** Serves the bookshelf with Express 4 (the `express4` alias of express@4) and the Express adapter. */
import type { Application } from 'express';
import express4 from 'express4';
import { serveWith } from './express.ts';
import type { Host } from './host.ts';

/**
 * Starts an Express 4 app for `api` on a node:http server; resolves once it listens. The
 * adapter's declarations name the types of 'express', here @types/express 5; in an Express 4
 * project they are that project's @types/express 4 and the app needs no cast.
 */
export const serve: Host = serveWith(() => express4() as unknown as Application);
