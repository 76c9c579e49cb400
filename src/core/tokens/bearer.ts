/** The bearer plugin: RFC 6750 token checks on every route, scopes and users per route. */
import { consoleLogger, type Logger } from '../errors/logger.ts';
import { assertInteger } from '../internal/options.ts';
import { RequestContext } from '../kernel/context.ts';
import type { Identity } from '../kernel/identity.ts';
import type { CheckResult, Plugin, PluginSetup } from '../kernel/plugin.ts';
import type { RouteInfo } from '../kernel/route-table.ts';
import type { RouteSettings } from '../kernel/route-types.ts';
import { andThen, isPromise, type Step } from '../kernel/steps.ts';
import { guardStore } from '../stores/guard-store.ts';
import { MemoryStore } from '../stores/memory-store.ts';
import { type BearerOptions, keySource, type PerRequest } from './bearer-options.ts';
import { Challenges } from './challenge.ts';
import { tokenFromForm, tokenFromHeader, tokenFromQuery } from './extract.ts';
import { TokenKeys } from './keys.ts';
import { allowOn, compileRoutePlan, type RoutePlan } from './route-plan.ts';
import { type Expected, TokenVerifier } from './verifier.ts';

const bearerScheme = /^bearer /i;

declare module '../kernel/context.ts' {
  interface RequestState {
    /**
     * @internal Set by the `bearer` plugin when the token may sit in the form body, checked once
     * the body is parsed: `'open'` when none came yet, `'taken'` when one came another way.
     */
    tokenInForm?: 'open' | 'taken' | undefined;
  }
}
const formType = 'application/x-www-form-urlencoded';

/** Where `credentials` notes the `Authorization` header whose token the cache vouched for. */
const vouchedKey = Symbol('api-conventions.bearer.vouched');
type Vouched = { [vouchedKey]?: string };

/**
 * The bearer plugin of {@link bearer}: checks tokens on every route, and verifies and revokes
 * tokens for the token side (introspection, revocation).
 *
 * @category Tokens
 */
export class BearerPlugin implements Plugin {
  /** The plugin's name. */
  readonly name = 'bearer';
  /** The route settings it reads: `auth`, `scopes`, `user`. */
  readonly routeConfig = ['auth', 'scopes', 'user'];
  private readonly verifier: TokenVerifier;
  private readonly challenges: Challenges;
  private readonly plans = new WeakMap<RouteSettings, RoutePlan>();
  private readonly defaultMode: 'required' | 'optional';
  private readonly queryOn: boolean;
  private readonly bodyOn: boolean;
  private readonly fixed: Expected | undefined;
  private readonly issuerOf: PerRequest<string>;
  private readonly audienceOf: PerRequest<string | readonly string[]> | null;
  /** The keys given (or their promise), whose development-key warning the service's logger gets. */
  private readonly given: TokenKeys | Promise<TokenKeys> | undefined;
  /** Where refusals go: the service's logger, once set up (the default logger before). */
  private logger: Required<Logger> = consoleLogger;

  /** @internal Use {@link bearer}. */
  constructor(options: BearerOptions) {
    if (typeof options !== 'object' || options === null) {
      throw new TypeError(
        'bearer: give options: { keys, issuer, audience } or { jwksUri, issuer, audience }.',
      );
    }
    const source = keySource(options);
    this.issuerOf = checkPerRequest('issuer', options.issuer);
    this.audienceOf =
      options.audience === undefined && source.claims.clients !== undefined
        ? null
        : checkPerRequest('audience', options.audience);
    this.fixed =
      typeof this.issuerOf === 'function' || typeof this.audienceOf === 'function'
        ? undefined
        : { issuer: this.issuerOf, audience: this.audienceOf };
    const realm = options.realm ?? 'api';
    if (typeof realm !== 'string' || realm === '') {
      throw new TypeError('bearer: realm must be a non-empty string such as "api".');
    }
    this.challenges = new Challenges(realm);
    const auth = options.auth ?? 'required';
    if (auth !== 'required' && auth !== 'optional') {
      throw new TypeError(`bearer: auth must be 'required' or 'optional'; got ${String(auth)}.`);
    }
    this.defaultMode = auth;
    this.queryOn = flag('query', options.query, false);
    this.bodyOn = flag('body', options.body, true);
    const store = options.store ?? new MemoryStore();
    const now = options.now;
    if (now !== undefined && typeof now !== 'function') {
      throw new TypeError('bearer: now must be a function returning milliseconds since the epoch.');
    }
    this.given =
      source.keys instanceof TokenKeys || isPromise(source.keys) ? source.keys : undefined;
    this.verifier = new TokenVerifier({
      keys: source.keys,
      claims: source.claims,
      // Read at each refusal: the service's logger arrives in setup, after this.
      logRefusal: source.logRefusals
        ? (why, ctx) =>
            // The request's logger, when the check was made for a request: the line carries its
            // route, id and trace.
            (ctx instanceof RequestContext ? ctx.logger : this.logger).warn(
              `bearer: access token refused: ${why}.`,
            )
        : undefined,
      challenges: this.challenges,
      store: guardStore(store, { prefix: 'tokens:revoked:' }),
      cacheSize: assertInteger('bearer cacheSize', options.cacheSize ?? 10_000, 0, 10_000_000),
      maxTokenLength: assertInteger(
        'bearer maxTokenLength',
        options.maxTokenLength ?? 4096,
        64,
        1_048_576,
      ),
      revocationCheckMs: assertInteger(
        'bearer revocationCheckMs',
        options.revocationCheckMs ?? 5000,
        0,
        86_400_000,
      ),
      clockTolerance: assertInteger('bearer clockTolerance', options.clockTolerance ?? 0, 0, 3600),
      maxTokenAge: source.maxTokenAge,
      now,
    });
  }

  /**
   * Takes the service's logger, and hands it the keys' development-key warning, if they have one
   * to give.
   */
  setup({ logger }: PluginSetup): void {
    this.logger = logger;
    const keys = this.given;
    if (keys instanceof TokenKeys) keys.reportTo(this.logger);
    // A promise that rejects is the verifier's to answer (503); nothing to report here.
    else keys?.then((loaded) => loaded.reportTo(this.logger), ignore);
  }

  /** Compiles a route's `auth`, `scopes` and `user` at start-up; a misuse is a `TypeError`. */
  onRoute(route: RouteInfo): void {
    this.planOf(route);
  }

  private planOf(route: RouteSettings): RoutePlan {
    let plan = this.plans.get(route);
    if (plan === undefined) {
      plan = compileRoutePlan(route, this.defaultMode, this.bodyOn, this.challenges);
      this.plans.set(route, plan);
    }
    return plan;
  }

  private expected(ctx: RequestContext): Expected {
    if (this.fixed !== undefined) return this.fixed;
    const issuer = this.issuerOf;
    const audience = this.audienceOf;
    return {
      issuer: typeof issuer === 'function' ? issuer(ctx) : issuer,
      audience: typeof audience === 'function' ? audience(ctx) : audience,
    };
  }

  /**
   * For the rate limiter and others, spending no crypto: whether the request presents a bearer
   * token still to be verified (in the `Authorization` header, or the query when `query` is on).
   * A header token the cache already vouches for is put on `ctx.identity` here, so that limits
   * count its caller by subject at once; it is still checked in `authenticate`.
   */
  credentials(ctx: RequestContext): boolean {
    if (ctx.identity !== undefined) return false;
    const header = ctx.headers.get('authorization');
    if (header != null && header.length > 7 && bearerScheme.test(header)) {
      const route = ctx.route;
      if (route === undefined || this.planOf(route).mode === 'off') return true;
      try {
        const token = tokenFromHeader(header, this.challenges);
        if (token !== undefined) ctx.identity = this.verifier.peek(token, this.expected(ctx));
        // authenticate need not look the same token up again (hashing its few hundred characters).
        if (ctx.identity !== undefined) (ctx.state as Vouched)[vouchedKey] = header;
      } catch {
        // authenticate answers it
      }
      return ctx.identity === undefined;
    }
    return this.queryOn && ctx.rawQuery.includes('access_token');
  }

  /**
   * The authentication phase, on every matched route (the table's and the host's own): the
   * header or query token, checked and on `ctx.identity`, and the route's `scopes` and `user`.
   */
  authenticate(ctx: RequestContext): Step<CheckResult> {
    const plan = this.planOf(ctx.route!);
    if (plan.mode === 'off') return;
    const { challenges } = this;
    const header = ctx.headers.get('authorization');
    // The cache vouched for this very header in `credentials`, a moment ago, for this request:
    // its token is not taken out and looked up again.
    const vouched =
      ctx.identity !== undefined && header != null && (ctx.state as Vouched)[vouchedKey] === header;
    let token = vouched ? undefined : header ? tokenFromHeader(header, challenges) : undefined;
    if (ctx.rawQuery.includes('access_token')) {
      if (!this.queryOn) {
        throw challenges.badRequest(
          'Access tokens are not accepted in the query string; send them in the Authorization header.',
        );
      }
      const fromQuery = tokenFromQuery(ctx.query, challenges);
      if (fromQuery !== undefined) {
        if (token !== undefined || vouched) throw this.twoMethods();
        token = fromQuery;
        // RFC 6750 §2.3: a response to a request with the token in its URI is private.
        ctx.responseHeaders.set('cache-control', 'private');
      }
    }
    const formBody =
      plan.formBody &&
      ctx.headers.get('content-type')?.slice(0, formType.length).toLowerCase() === formType;
    if (vouched) {
      if (formBody) ctx.state.tokenInForm = 'taken';
      return allowOn(plan, ctx.identity!, this.challenges);
    }
    if (token === undefined) {
      if (formBody) {
        ctx.state.tokenInForm = 'open';
        return;
      }
      if (ctx.identity !== undefined) return allowOn(plan, ctx.identity, this.challenges);
      if (plan.mode === 'required') throw challenges.missing();
      return;
    }
    return andThen(this.verifier.check(token, this.expected(ctx), ctx), (identity) => {
      if (formBody) ctx.state.tokenInForm = 'taken';
      ctx.identity = identity;
      return allowOn(plan, identity, this.challenges);
    });
  }

  /** Whether `route` lets a caller without a token through: `auth: false` or `'optional'`. */
  allowsAnonymous(route: RouteSettings): boolean {
    return this.planOf(route).mode !== 'required';
  }

  /**
   * Where the host may run another route than the one checked and one of them needs a token: the
   * token the request presents (header, or query when `query` is on) is verified, and a request
   * without one is refused with the challenge; no route's scopes are asked for. A token that the
   * checked route's form body may still carry is left to that route's `preHandler`.
   */
  requireIdentity(ctx: RequestContext): Step<CheckResult> {
    if (ctx.identity !== undefined || ctx.state.tokenInForm === 'open') return;
    const { challenges } = this;
    const header = ctx.headers.get('authorization');
    let token = header ? tokenFromHeader(header, challenges) : undefined;
    if (token === undefined && this.queryOn && ctx.rawQuery.includes('access_token')) {
      token = tokenFromQuery(ctx.query, challenges);
    }
    if (token === undefined) throw challenges.missing();
    return andThen(this.verifier.check(token, this.expected(ctx), ctx), (identity) => {
      ctx.identity = identity;
      return undefined;
    });
  }

  /** After the body is parsed: a token in a form body, or a second token there (400). */
  preHandler(ctx: RequestContext): Step<CheckResult> {
    const seen = ctx.state.tokenInForm;
    if (seen === undefined) return;
    ctx.state.tokenInForm = undefined;
    const token = tokenFromForm(ctx.body, this.challenges);
    if (token !== undefined) {
      const { access_token: _, ...rest } = ctx.body as Record<string, unknown>;
      ctx.body = rest;
    }
    const plan = this.planOf(ctx.route!);
    if (seen === 'taken') {
      if (token !== undefined) throw this.twoMethods();
      return;
    }
    if (token === undefined) {
      if (ctx.identity !== undefined) return allowOn(plan, ctx.identity, this.challenges);
      if (plan.mode === 'required') throw this.challenges.missing();
      return;
    }
    return andThen(this.verifier.check(token, this.expected(ctx), ctx), (identity) => {
      ctx.identity = identity;
      return allowOn(plan, identity, this.challenges);
    });
  }

  private twoMethods() {
    return this.challenges.badRequest(
      'Send the access token one way only: the Authorization header, the form body or the query (RFC 6750 §2).',
    );
  }

  /**
   * Verifies a token outside a request (RFC 7662 introspection): its identity, claims included,
   * or a rejected 401 `ApiError` for a token that is invalid, expired or revoked. `expected` is
   * needed when `issuer` or `audience` is a function of the request.
   */
  async verify(token: string, expected?: Expected): Promise<Identity> {
    if (expected === undefined && this.fixed === undefined) {
      throw new TypeError(
        'bearer verify(): issuer or audience depends on the request; pass { issuer, audience }.',
      );
    }
    if (typeof token !== 'string') throw this.challenges.invalid('malformed');
    return this.verifier.check(token, expected ?? this.fixed!);
  }

  /**
   * Revokes the access token `jti` (RFC 7009): refused at once by this instance, and by others
   * sharing the store within `revocationCheckMs`. `expiresAt` is its `exp`, in seconds since the
   * epoch: the revocation is kept until then.
   */
  async revoke(jti: string, expiresAt: number): Promise<void> {
    if (typeof jti !== 'string' || jti === '')
      throw new TypeError('bearer revoke(): jti must be a non-empty string.');
    // Seconds, as `exp` is: a value in milliseconds would keep the id for millennia.
    if (typeof expiresAt !== 'number' || !Number.isFinite(expiresAt) || expiresAt > 1e11) {
      throw new TypeError(
        "bearer revoke(): expiresAt must be the token's exp, in seconds since the epoch.",
      );
    }
    await this.verifier.revoke(jti, expiresAt);
  }

  /**
   * The keys tokens are verified with, once loaded; rejects with a `TypeError` when tokens are
   * verified with a provider's `jwksUri`, whose keys this service does not hold.
   */
  get keys(): Promise<TokenKeys> {
    return this.verifier.whenReady().then((keys) => {
      if (keys instanceof TokenKeys) return keys;
      throw new TypeError(
        "bearer keys: tokens are verified with the provider's jwksUri; its keys are there.",
      );
    });
  }

  /** @internal The verifier, for the micro-benchmark: its synchronous cached path. */
  get tokenVerifier(): TokenVerifier {
    return this.verifier;
  }
}

const ignore = () => {};

function flag(name: string, value: unknown, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') throw new TypeError(`bearer: ${name} must be true or false.`);
  return value;
}

function checkPerRequest<T>(name: string, value: PerRequest<T> | undefined): PerRequest<T> {
  if (typeof value === 'function') return value;
  const ok =
    (typeof value === 'string' && value !== '') ||
    (name === 'audience' &&
      Array.isArray(value) &&
      value.length > 0 &&
      value.every((v) => typeof v === 'string' && v !== ''));
  if (!ok) {
    throw new TypeError(
      `bearer: ${name} must be a non-empty string${name === 'audience' ? ' (or list of them)' : ''}, or a function of the request that returns it.`,
    );
  }
  return value as T;
}

/**
 * The RFC 6750 bearer plugin: every route needs a valid access token unless it says
 * `auth: false` (or `'optional'`); route settings `scopes` and `user: true` narrow it further.
 * The verified caller is on `ctx.identity` (subject, client, scopes). Verified tokens are
 * remembered (see [Access tokens](../../../docs/tokens.md)), so a token seen before costs a map lookup.
 *
 * @example
 * ```ts
 * import { bearer, conventions, created, createTokenKeys } from 'api-conventions';
 * const keys = await createTokenKeys();
 * const auth = bearer({ keys, issuer: 'https://api.example.com', audience: 'https://api.example.com' });
 * const app = conventions({
 *   plugins: [auth],
 *   routes: {
 *     '/v1/books': { POST: { handler: () => created('/v1/books/1', {}), config: { scopes: ['books:write'] } } },
 *     '/v1/health': { GET: { handler: () => ({ ok: true }), config: { auth: false } } },
 *   },
 * });
 * ```
 *
 * @category Tokens
 *
 * @see [Access tokens](../../../docs/tokens.md) for keys, rotation and the verified-token cache;
 *   [Your identity provider](../../../docs/identity-providers.md) for Keycloak, Auth0, Okta, Entra
 *   ID and Cognito.
 */
export function bearer(options: BearerOptions): BearerPlugin {
  return new BearerPlugin(options);
}
