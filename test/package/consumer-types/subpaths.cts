// A CommonJS module that types every subpath through require: the main entries and their results.
import core = require('api-conventions');
import auditor = require('api-conventions/audit');
import client = require('api-conventions/client');
import express = require('api-conventions/express');
import fastify = require('api-conventions/fastify');
import fetch = require('api-conventions/fetch');
import host = require('api-conventions/host');
import lint = require('api-conventions/lint');
import node = require('api-conventions/node');
import oauth = require('api-conventions/oauth');
import otel = require('api-conventions/otel');
import redis = require('api-conventions/redis');

const api: core.Conventions = core.conventions({ routes: {} });
const handlers = {
  node: node.toNodeHandler(api),
  express: express.toExpressMiddleware(api).before,
  fastify: fastify.toFastifyPlugin(api),
  fetch: fetch.toFetchHandler(api),
  refused: fetch.toClientErrorHandler(api),
};
const bound: host.BoundHost<host.RequestInput> = host.bindHost(api, {
  input: (i: host.RequestInput) => i,
});
const known: boolean = typeof bound.enter === 'function';
const findings: lint.LintFinding[] = lint.lintRoutes(['/v1/books']);
// @ts-expect-error route lint is not on the root entry any more
const unlinted = core.lintRoutes;
const server: (options: oauth.OAuthServerOptions) => oauth.OAuthServer = oauth.oauthServer;
const Store: typeof redis.RedisStore = redis.RedisStore;
// @ts-expect-error the OAuth server is not on the root entry any more
const gone = core.oauthServer;

const run: (options: auditor.AuditOptions) => Promise<auditor.AuditReport> = auditor.audit;
const traced: core.Conventions = core.conventions({
  requestIds: true,
  plugins: [otel.telemetry()],
});
const books: client.Client = client.createClient({ baseUrl: 'https://books.example.com' });
const failed: boolean = client.isApiResponseError(new Error('x'));
export = { handlers, known, findings, unlinted, server, Store, gone, run, traced, books, failed };
