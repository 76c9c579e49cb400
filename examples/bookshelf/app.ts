/** The bookshelf: every part of the reference service, composed once and served by every adapter. */
import {
  type Conventions,
  type ConventionsOptions,
  conventions,
  type DeprecatedCall,
  type Plugin,
  payloads,
  type RouteTable,
  type Store,
  serveOpenApi,
} from 'api-conventions';
import { telemetry } from 'api-conventions/otel';
import { authorPlugins, authorRoutes } from './authors.ts';
import { bookRoutes, seedShelf } from './books.ts';
import { httpSemantics, httpSemanticsRoutes } from './http-semantics.ts';
import { bookImports } from './imports.ts';
import { type LimitSettings, limitsPlugin } from './limits.ts';
import { type OAuthSettings, oauthPart, withBookScopes } from './oauth.ts';
import { bookshelfOpenApi, docsRoutes } from './openapi.ts';
import { type SecuritySettings, securityPlugins } from './security.ts';

/** Settings of one bookshelf instance; every field has a default. */
export interface BookshelfOptions {
  /** Where every line the service logs goes: faults, and the warnings of its plugins. @default console */
  logger?: ConventionsOptions['logger'];
  /** HTTPS only, and origins CORS allows beside the contract's. @default HTTP allowed, one origin */
  security?: SecuritySettings;
  /** The rate limit per caller (`RATE_LIMIT`, `RATE_WINDOW`). @default 1000 per 3600 s */
  rateLimit?: LimitSettings;
  /**
   * Where shared state lives (rate counts, tokens): a Redis store (`REDIS_URL`) shared by every
   * instance. @default each feature's own memory store
   */
  store?: Store;
  /** Told of each call to a deprecated endpoint (route, identity). @default none */
  onDeprecatedCall?: (call: DeprecatedCall) => void;
  /** Warn about payloads that break the field rules (development aid). @default false */
  checkPayloads?: boolean;
  /** Token lifetime, shared keys and store. @default 3600 s, a development key, memory */
  oauth?: OAuthSettings;
  /**
   * Request ids and OpenTelemetry spans and metrics (through the global API: main.ts registers
   * an SDK when OTEL_EXPORTER_OTLP_ENDPOINT is set). @default false
   */
  observability?: boolean;
  /**
   * Whether a read whose version, request and data are unchanged sends the JSON text it wrote
   * before (`caching({ reuseText })`); off, every page is written anew. @default true
   */
  reuseText?: boolean;
}

/** Builds a bookshelf with its own freshly seeded data. */
export function createBookshelf(options: BookshelfOptions = {}): Conventions {
  // Each part of the service adds its routes and plugins here, one line each.
  const books = seedShelf();
  const imports = bookImports(books, options.store);
  const oauth = oauthPart({
    ...(options.store ? { store: options.store } : {}),
    ...options.oauth,
  });
  const routes: RouteTable = {
    ...httpSemanticsRoutes({
      ...withBookScopes(bookRoutes(books)),
      ...withBookScopes(imports.routes),
      ...authorRoutes(),
    }),
    ...oauth.routes,
    ...docsRoutes(),
  };
  const plugins: Plugin[] = [
    // First: the span starts before every other plugin's work and ends after it.
    ...(options.observability ? [telemetry()] : []),
    ...securityPlugins(options.security),
    limitsPlugin(options.rateLimit, options.store),
    payloads({
      // The reference service refuses every query parameter it does not read (a 400 naming
      // it), stricter than the library's default ('typos'), so clients see each mistake.
      unknownParameters: 'reject',
      checkPayloads: options.checkPayloads ?? false,
    }),
    ...httpSemantics(options.reuseText),
    imports.jobs,
    ...oauth.plugins,
    // Versioning reports who calls deprecated endpoints: keep it after the plugins that set identity.
    ...authorPlugins(options.onDeprecatedCall),
    // GET /v1/openapi: the document of everything above, public.
    serveOpenApi(bookshelfOpenApi),
  ];
  return conventions({
    routes,
    plugins,
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.observability ? { requestIds: true } : {}),
  });
}
