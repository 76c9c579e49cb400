/** An Express request as the core's context: headers, origin, and the body as a body parser left it. */

import type { Request } from 'express';
import type { RequestInput } from '#core';
import { addNodeBody, nodeInput } from './_node-io.ts';

/** The core's input for an Express request, without its body (added where a route reads it). */
export const inputOf = (req: Request): RequestInput => nodeInput(req, req.originalUrl, req);

/**
 * Hands the body to the core: what a body parser already made of it, else the stream. Called
 * when the route runs, since a body parser may have run after `before`.
 */
export const addBody = (req: Request, input: RequestInput): void =>
  addNodeBody(req, req.body, input);
