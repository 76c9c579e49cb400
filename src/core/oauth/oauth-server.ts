/** `oauthServer()`: the token, revocation, introspection, JWKS and metadata routes as one plugin. */

import type { OutgoingResponse } from '../http/response.ts';
import type { RequestContext } from '../kernel/context.ts';
import { ownTransform } from '../kernel/own-transforms.ts';
import type { Plugin, PluginSetup } from '../kernel/plugin.ts';
import type { RouteTable } from '../kernel/route-table.ts';
import type { RouteConfig } from '../kernel/route-types.ts';
import { type AuthorizationHelpers, authorizationHelpers } from './authorize.ts';
import { FailureCounter } from './brute-force.ts';
import { AuthorizationCodes } from './codes.ts';
import { jwksDocument, metadataDocument, oauthDocuments } from './describe.ts';
import { oauthWordFor } from './errors.ts';
import { compileMetadata } from './metadata.ts';
import type { OAuthServerOptions } from './options.ts';
import { RefreshTokens } from './refresh-tokens.ts';
import { type ResolvedOAuth, resolveOAuthOptions } from './resolve.ts';
import { introspectionEndpoint, revocationEndpoint } from './revoke-introspect.ts';
import { noStore, type TokenState, tokenEndpoint } from './token-endpoint.ts';

/**
 * The OAuth 2.0 authorization server as a plugin: its routes, and the helpers a service's own
 * authorization endpoint calls.
 *
 * @category OAuth server
 */
export interface OAuthServer extends Plugin {
  /** The routes: token, revocation, introspection, JWKS and the RFC 8414 metadata. */
  readonly routes: RouteTable;
  /** Helpers for the service's authorization endpoint (code flow with PKCE, implicit when enabled). */
  readonly authorization: AuthorizationHelpers;
  /** The paths of the OAuth endpoints, so a bearer check can leave them open. */
  readonly paths: readonly string[];
  /**
   * The issuer of a request: the `issuer` option, or the request's own origin. Give it to the
   * bearer check as its `issuer`, so both sides agree.
   */
  readonly issuerOf: (ctx: RequestContext) => string;
  /** The audience of a request's tokens: the `audience` option, or the issuer. */
  readonly audienceOf: (ctx: RequestContext) => string;
}

// RFC 6749 §3.2 endpoints read small form bodies only.
// `auth: false`: a bearer check leaves them open (client authentication is their own).
const formRoute = { accepts: ['form'] as const, bodyLimit: 16 * 1024, auth: false } as RouteConfig;
const openRoute = { auth: false } as RouteConfig;
const publicCache = { 'cache-control': 'public, max-age=300' };

/** The authorization server of {@link oauthServer}: its routes, helpers and state. */
class OAuthServerPlugin implements OAuthServer {
  readonly name = 'oauth-server';
  readonly routeConfig = ['auth'];
  readonly routes: RouteTable;
  readonly authorization: AuthorizationHelpers;
  readonly paths: readonly string[];
  readonly issuerOf: (ctx: RequestContext) => string;
  readonly audienceOf: (ctx: RequestContext) => string;
  private readonly options: ResolvedOAuth;
  /** The endpoints that read forms and answer with tokens (RFC 6749 §5). */
  private readonly formPaths: ReadonlySet<string>;
  /** The public documents, cached for a while (metadata, JWKS). */
  private readonly cached: ReadonlySet<string>;

  constructor(options: OAuthServerOptions) {
    const o = resolveOAuthOptions(options);
    this.options = o;
    const state: TokenState = {
      options: o,
      refresh: new RefreshTokens(
        o.store,
        o.refreshTokenTtl * 1000,
        o.maxRefreshFamilies,
        o.tokens.revoke?.bind(o.tokens),
      ),
      codes: new AuthorizationCodes(o.store, o.codeTtl * 1000),
      counter: o.bruteForce ? new FailureCounter(o.counterStore, o.bruteForce) : undefined,
    };
    const metadata = compileMetadata(o);
    const { jwks } = o.tokens;
    const documents = oauthDocuments(o);
    this.routes = {
      [o.paths.token]: {
        POST: { handler: tokenEndpoint(state), config: { ...formRoute, openapi: documents.token } },
      },
      [o.paths.revoke]: {
        POST: {
          handler: revocationEndpoint(state),
          config: { ...formRoute, openapi: documents.revoke },
        },
      },
      [o.paths.introspect]: {
        POST: {
          handler: introspectionEndpoint(state),
          config: { ...formRoute, openapi: documents.introspect },
        },
      },
      [o.paths.metadata]: {
        GET: {
          handler: (ctx) => metadata(ctx),
          config: { ...openRoute, openapi: metadataDocument },
        },
      },
      ...(jwks
        ? {
            [o.paths.jwks]: {
              GET: {
                handler: async () => await jwks(),
                config: { ...openRoute, openapi: jwksDocument },
              },
            },
          }
        : {}),
    };
    this.formPaths = new Set([o.paths.token, o.paths.revoke, o.paths.introspect]);
    this.cached = new Set([o.paths.metadata, o.paths.jwks]);
    this.authorization = authorizationHelpers(o, state, async (client, subject, scope, ctx) =>
      o.tokens.issue({
        issuer: o.issuerOf(ctx),
        audience: o.audienceOf(ctx),
        subject,
        clientId: client.id,
        scope,
        ttlSeconds: o.accessTokenTtl,
      }),
    );
    this.paths = [...this.formPaths, ...this.cached];
    this.issuerOf = o.issuerOf;
    this.audienceOf = o.audienceOf;
  }

  /** Logs its start-up warnings through the service's logger. */
  setup({ logger }: PluginSetup): void {
    for (const warning of this.options.warnings) logger.warn(warning);
  }

  /** The transform phase: token answers never stored, errors in RFC 6749's words too. */
  preSerialization(ctx: RequestContext, response: OutgoingResponse): void {
    if (this.formPaths.has(ctx.path)) {
      // RFC 6749 §5.1: no token answer is ever stored; errors of the core (415, 413, 405)
      // get RFC 6749's `error` too, so an OAuth client can read every failure.
      response.headers.set('cache-control', noStore['cache-control']).set('pragma', noStore.pragma);
      const body = response.body as { errors?: { message: string }[]; error?: string } | undefined;
      if (response.status >= 400 && body?.errors && body.error === undefined) {
        response.body = {
          ...body,
          error: oauthWordFor(response.status),
          error_description: body.errors[0]?.message.replace(/[^\x20\x21\x23-\x5b\x5d-\x7e]/g, '?'),
        };
      }
    } else if (this.cached.has(ctx.path) && response.status === 200) {
      response.headers.set('cache-control', publicCache['cache-control']);
    }
  }
}

/**
 * Builds the OAuth 2.0 authorization server of spec 4.9 and 5: `POST {basePath}/token` with the
 * grants each client is allowed, `POST {basePath}/revoke` (RFC 7009), `POST {basePath}/introspect`
 * (RFC 7662), `GET {basePath}/jwks` and `GET /.well-known/oauth-authorization-server`
 * (RFC 8414). Its state (refresh-token families, codes, failure counters) lives in `store`.
 *
 * @example
 * ```ts
 * import { conventions, createTokenKeys } from 'api-conventions';
 * import { hashClientSecret, oauthServer, issueAccessToken } from 'api-conventions/oauth';
 *
 * const keys = await createTokenKeys(); // real keys in production: see createTokenKeys
 * const oauth = oauthServer({
 *   issuer: 'https://api.example.com',
 *   scopes: ['books:read', 'books:write'],
 *   publicScopes: ['books:read'],
 *   clients: [
 *     {
 *       id: 'demo-client',
 *       secretHash: await hashClientSecret(process.env.DEMO_CLIENT_SECRET!),
 *       grants: ['client_credentials'],
 *     },
 *   ],
 *   tokens: { issue: (request) => issueAccessToken(keys, request) },
 * });
 * const api = conventions({ plugins: [oauth] }); // POST /v1/oauth2/token, and its siblings
 * ```
 *
 * @category OAuth server
 */
export function oauthServer(options: OAuthServerOptions): OAuthServer {
  return ownTransform(new OAuthServerPlugin(options));
}
