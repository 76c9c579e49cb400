/**
 * The conventions on the HTTP adapter of a Nest app: @nestjs/platform-express through the Express
 * binding, @nestjs/platform-fastify through the Fastify plugin, each checked ahead of Nest's
 * middleware. Made while Nest builds its modules, before it registers a route; told by Nest's
 * `onModuleInit` once its routes are there.
 */
import type { HttpAdapterHost, ModulesContainer } from '@nestjs/core';
import type { Conventions, RouteConfig } from 'api-conventions';
import type { Application, Request, Response } from 'express';
import { nestExpress } from './_nest-express.ts';
import { nestFastify } from './_nest-fastify.ts';
import { readBodies } from './_nest-settings.ts';

/** What the module's filter and lifecycle hook call. */
export interface NestHost {
  /** Nest's routes are registered (Nest's `onModuleInit`). */
  onModuleInit(): void;
  /** An error Nest caught while it handled a request: the spec's error response. */
  fail(error: unknown, request: object, response: object): void;
}

/**
 * The policy of a documentation page (Swagger UI): its own scripts and styles (it sets inline
 * styles), images inline or from here, the document from this origin, never framed.
 */
const docsPolicy = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** The settings of the documentation page's routes, under `docs`, for the service's plugins. */
export function docsRoutes(
  api: Conventions,
  docs: string | undefined,
): (path: string) => RouteConfig | undefined {
  if (docs === undefined) return () => undefined;
  if (typeof docs !== 'string' || !/^\/?[\w./-]*$/.test(docs)) {
    throw new TypeError(
      `ConventionsModule.forRoot: docs must be the path SwaggerModule.setup() serves, such as 'docs'; got ${String(docs)}.`,
    );
  }
  const base = `/${docs.replace(/^\/+|\/+$/g, '')}`;
  const config: RouteConfig = { auth: false };
  if (api.plugins.includes('security-headers')) {
    config.securityHeaders = { contentSecurityPolicy: docsPolicy };
  }
  // The page, its assets, and the documents beside it (`/docs-json`, `/docs-yaml`).
  return (path: string) =>
    path === base || path.startsWith(`${base}/`) || path.startsWith(`${base}-`)
      ? config
      : undefined;
}

/** Binds the conventions to the Nest app's HTTP adapter. */
export async function nestHost(
  api: Conventions,
  adapters: HttpAdapterHost,
  modules: ModulesContainer,
  docs: (path: string) => RouteConfig | undefined,
): Promise<NestHost> {
  readBodies(
    [...modules.values()].flatMap((module) =>
      [...module.controllers.values()].map((wrapper) => wrapper.metatype),
    ),
  );
  const adapter = adapters.httpAdapter;
  const type = adapter?.getType();
  if (type === 'express') {
    const express = nestExpress(api, adapter.getInstance() as Application, docs);
    return {
      onModuleInit: () => express.routed(),
      fail: (error, request, response) =>
        express.fail(error, request as Request, response as Response),
    };
  }
  if (type === 'fastify') {
    const fail = await nestFastify(api, adapter, docs);
    return { onModuleInit() {}, fail };
  }
  throw new TypeError(
    `ConventionsModule serves Nest apps on @nestjs/platform-express or @nestjs/platform-fastify; this app's HTTP adapter is ${String(type)}.`,
  );
}
