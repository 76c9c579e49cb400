/**
 * node-bare: `node:http` with nothing on top, the floor for `node-ours`.
 *
 * The body is serialized on every request (not cached) because our adapter does the same work;
 * a cached string would measure a different thing.
 */
import { listenBare, payload } from './_server.mjs';

listenBare(payload);
