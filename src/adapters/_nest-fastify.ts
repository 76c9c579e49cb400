/**
 * The conventions on @nestjs/platform-fastify: the Fastify plugin serves Nest's app. Nest runs its
 * middleware through @fastify/middie, whose request hook `NestFactory.create()` registers before
 * any module, so the plugin's entry (the checks of the route Fastify dispatched) runs in the
 * adapter's own request hook, which Nest adds ahead of middie; a middleware entered for a request
 * no route serves meets a check point first, as Express's middleware does.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { AbstractHttpAdapter } from '@nestjs/core';
import type { Conventions, RouteConfig } from 'api-conventions';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { enterAfter } from '#core';
import { type Next, served, writeError, writeReply } from './_fastify-server.ts';
import { toFastifyPlugin } from './fastify.ts';

type Middleware = (req: IncomingMessage, res: ServerResponse, next: Next) => unknown;
type Hook = (request: FastifyRequest, reply: FastifyReply, done: Next) => void;
type Register = (path: string, middleware: Middleware) => unknown;

/** The members of Nest's Fastify adapter the conventions take over. */
interface NestFastifyAdapter {
  setOnRequestHook(hook: Hook): void;
  setNotFoundHandler(): unknown;
  setErrorHandler(): unknown;
  createMiddlewareFactory(method: unknown): Register | Promise<Register>;
  use(...args: unknown[]): unknown;
}

/** Where a request Nest's middleware receives (the raw one) came from. */
interface Entered {
  readonly request: FastifyRequest;
  readonly reply: FastifyReply;
}

/**
 * Registers the plugin on Nest's Fastify app, its entry ahead of Nest's middleware and a check
 * point in front of each middleware; gives what answers an error Nest's filter caught.
 */
export async function nestFastify(
  api: Conventions,
  nest: AbstractHttpAdapter,
  docs: (path: string) => RouteConfig | undefined,
): Promise<(error: unknown, request: object, reply: object) => void> {
  const fastify = nest.getInstance() as FastifyInstance;
  const adapter = nest as unknown as NestFastifyAdapter;
  // An adapter without a request hook of its own (the abstract one's does nothing) would run Nest
  // middleware before any check.
  if (adapter.setOnRequestHook === AbstractHttpAdapter.prototype.setOnRequestHook) {
    throw new TypeError(
      'ConventionsModule needs @nestjs/platform-fastify 11 or later, whose adapter runs a request hook ahead of Nest middleware: upgrade @nestjs/platform-fastify.',
    );
  }
  // The plugin answers what no route serves (the route view's 404, 405 and OPTIONS) and every
  // error Fastify raises; Fastify takes one handler of each, so Nest's own are not set.
  adapter.setNotFoundHandler = () => adapter;
  adapter.setErrorHandler = () => adapter;
  // Routes Nest did not declare (the documentation page's) get their settings as they are added.
  fastify.addHook('onRoute', (route) => {
    const config = docs(route.url);
    if (
      config !== undefined &&
      (route.config as { conventions?: unknown })?.conventions === undefined
    ) {
      route.config = { ...(route.config as object), conventions: config } as typeof route.config;
    }
  });
  // Loaded now, so that its onRoute hook sees each route Nest declares.
  await fastify.register(toFastifyPlugin(api));
  const { host, enter } = served.get(fastify)!;

  const entered = new WeakMap<IncomingMessage, Entered>();
  // The adapter keeps one request hook: one set later (by the app) runs after the entry.
  let theirs: Hook | undefined;
  adapter.setOnRequestHook((request, reply, done) => {
    entered.set(request.raw, { request, reply });
    enter(request, reply, (error) =>
      error !== undefined || theirs === undefined ? done(error) : theirs(request, reply, done),
    );
  });
  adapter.setOnRequestHook = (hook) => {
    theirs = hook;
  };

  /**
   * A check point in front of a middleware: Fastify routed the request before any hook, and the
   * entry let the caller through to that route, so a caller without credentials passes only on
   * the way to a route; on a request no route serves, credentials are required.
   */
  const checkpoint =
    (middleware: Middleware): Middleware =>
    (req, res, next) => {
      const at = entered.get(req);
      if (at === undefined) return middleware(req, res, next);
      const { request, reply } = at;
      const routed = (request.routeOptions.config as { url?: string } | undefined)?.url;
      const checked = host.check(request, undefined, undefined, () => routed !== undefined);
      // A promise goes back to Nest, which hands its rejection to `next`.
      return enterAfter(
        checked,
        () => middleware(req, res, next),
        (refusal) => writeReply(reply, refusal),
      );
    };
  const factory = adapter.createMiddlewareFactory.bind(adapter);
  adapter.createMiddlewareFactory = async (method) => {
    const register = await factory(method);
    return (path, middleware) => register(path, checkpoint(middleware));
  };
  const use = adapter.use.bind(adapter);
  adapter.use = (...args) =>
    use(...args.map((arg) => (typeof arg === 'function' ? checkpoint(arg as Middleware) : arg)));

  // An error a middleware raised comes with the raw request and response (middie's): answered
  // through the Fastify request and reply they belong to.
  return (error, request, reply) => {
    const at = entered.get(request as IncomingMessage);
    void writeError(
      host,
      error,
      at?.request ?? (request as FastifyRequest),
      at?.reply ?? (reply as FastifyReply),
    );
  };
}
