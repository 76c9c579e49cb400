// An ES module that types every subpath as a user's project sees it: the main entries, their
// options and results.
import { type Conventions, conventions, defineRoutes, type RequestContext } from 'api-conventions';
import { type AuditOptions, type AuditReport, audit } from 'api-conventions/audit';
import { ApiResponseError, type Client, createClient } from 'api-conventions/client';
import { type ExpressConventions, toExpressMiddleware } from 'api-conventions/express';
import { serverOptions, toFastifyPlugin } from 'api-conventions/fastify';
import { type FetchHandler, toClientErrorHandler, toFetchHandler } from 'api-conventions/fetch';
import { bindHost, type RequestInput } from 'api-conventions/host';
import { hasErrors, type LintFinding, lintRoutes } from 'api-conventions/lint';
import {
  type ClientErrorHandler,
  type NodeHandler,
  serverOptions as nodeServer,
  toClientErrorHandler as toNodeClientErrorHandler,
  toNodeHandler,
} from 'api-conventions/node';
import type { OAuthServer, OAuthServerOptions, oauthServer } from 'api-conventions/oauth';
import { type TelemetryPlugin, telemetry } from 'api-conventions/otel';
import { RedisStore, type RedisStoreOptions } from 'api-conventions/redis';
import type { FastifyPluginAsync } from 'fastify';

const api: Conventions = conventions({
  routes: { '/v1/books': { GET: (ctx: RequestContext) => ({ path: ctx.path }) } },
});
const handler: NodeHandler = toNodeHandler(api);
const parserErrors: ClientErrorHandler = toNodeClientErrorHandler(api);
const express: ExpressConventions = toExpressMiddleware(api);
const plugin: FastifyPluginAsync = toFastifyPlugin(api, { routes: true });
const fetchHandler: FetchHandler = toFetchHandler(api);
const onRefused: ReturnType<typeof toClientErrorHandler> = toClientErrorHandler(api);
const known: boolean = typeof bindHost(api, { input: (i: RequestInput) => i }).enter === 'function';
const findings: LintFinding[] = lintRoutes(['/v1/books']);
const clean: boolean = !hasErrors(findings);
const input: RequestInput['method'] = 'GET';
const maxHeaderSize: 65536 = nodeServer.maxHeaderSize;
const rewrite: (req: { url?: string }) => string = serverOptions.rewriteUrl;
type Server = ReturnType<typeof oauthServer>;
const server: Server extends OAuthServer ? true : false = true;
declare const oauthOptions: OAuthServerOptions;
declare const redisOptions: RedisStoreOptions;
const store: RedisStore = new RedisStore(redisOptions);
declare const auditOptions: AuditOptions;
const report: Promise<AuditReport> = audit(auditOptions);
const traced: Conventions = conventions({
  requestIds: { header: 'x-correlation-id' },
  plugins: [telemetry({ recordSubject: false })],
});
const telemetryPlugin: TelemetryPlugin = telemetry();
const requestId: string | undefined = ({} as RequestContext).state.requestId;

// The client, typed from a route table: the body's field rules, the path's parameters.
const noteRoutes = defineRoutes({
  '/v1/notes/:id': {
    PUT: {
      config: { body: { text: { type: 'string', required: true } } },
      handler: (ctx) => ({ text: ctx.body.text }),
    },
  },
});
const notes: Client<typeof noteRoutes> = createClient<typeof noteRoutes>({
  baseUrl: 'https://notes.example.com',
});
const written: Promise<unknown> = notes.put('/v1/notes/:id', {
  params: { id: 'n1' },
  body: { text: 'hello' },
});
// @ts-expect-error no such path
notes.put('/v1/note/:id', { params: { id: 'n1' }, body: { text: 'x' } });
const status: number = new ApiResponseError('GET', 'https://x/', 404, new Headers(), undefined)
  .status;

// @ts-expect-error toFastifyPlugin takes the conventions first, not an options object with `api`
toFastifyPlugin(api, { api });

export {
  clean,
  express,
  fetchHandler,
  findings,
  handler,
  input,
  known,
  maxHeaderSize,
  oauthOptions,
  onRefused,
  parserErrors,
  plugin,
  report,
  requestId,
  rewrite,
  server,
  status,
  store,
  telemetryPlugin,
  traced,
  written,
};
