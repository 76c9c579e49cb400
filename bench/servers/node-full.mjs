/**
 * node-full: our full stack (bench/servers/_full-stack.mjs) on the node:http adapter; with
 * `REDIS_URL`, its stores on Redis.
 */
import http from 'node:http';
import { toNodeHandler } from '../../dist/node.mjs';
import { fullStack } from './_full-stack.mjs';
import { otelOptions } from './_otel.mjs';
import { HOST, PORT, ready } from './_server.mjs';

const { api, features } = await fullStack(await otelOptions());
const server = http.createServer(toNodeHandler(api));

server.listen(PORT, HOST, () => ready(server.address().port, features));
