/** The versioning plugin: deprecation headers, 410 after the sunset, opt-in version selection (spec 9). */
import { ApiError } from '../errors/api-error.ts';
import { ErrorCode } from '../errors/catalogue.ts';
import type { OutgoingResponse, SentResponse } from '../http/response.ts';
import { assertKnownKeys } from '../internal/options.ts';
import type { RequestContext } from '../kernel/context.ts';
import type { Identity } from '../kernel/identity.ts';
import { ownTransform } from '../kernel/own-transforms.ts';
import type { Plugin } from '../kernel/plugin.ts';
import type { RouteInfo } from '../kernel/route-table.ts';
import type { RouteSettings } from '../kernel/route-types.ts';
import { Offer } from '../negotiation/media-types.ts';
import { boundedEcho } from '../paths/echo.ts';
import { type CompiledDeprecation, compileDeprecation } from './deprecation.ts';
import { type VersionTable, versionTableOf } from './versioned.ts';

/**
 * How a request may choose the major version of a {@link versioned} endpoint, besides its path.
 *
 * @category Versioning
 */
export interface VersionSelection {
  /** The query parameter that names the version: `?version=2` (or `v2`). @default none */
  query?: string | undefined;
  /**
   * The organisation in vendor media types: with `'acme'`, `Accept: application/vnd.acme.v2+json`
   * asks for version 2, and the response's `Content-Type` says which version it is. @default none
   */
  vendor?: string | undefined;
}

/**
 * One call to a deprecated endpoint, as {@link VersioningOptions.onDeprecatedCall} gets it.
 *
 * @category Versioning
 */
export interface DeprecatedCall {
  /** The method, upper-case. */
  method: string;
  /** The route pattern called, `/v1/authors/:id`. */
  route: string;
  /** The path called. */
  path: string;
  /** The version chosen by query or media type on a {@link versioned} route. */
  version: number | undefined;
  /** Who called, when a plugin established it. */
  identity: Identity | undefined;
  /** The status of the answer (410 once the sunset has passed). */
  status: number;
  /** The sunset date. */
  sunset: Date;
}

/**
 * Options of {@link versioning}.
 *
 * @category Versioning
 */
export interface VersioningOptions {
  /** Version selection by query or media type for {@link versioned} routes (spec 9.2). @default path versions only */
  select?: VersionSelection | undefined;
  /**
   * Called with each answered call to a deprecated endpoint, the 410s after its sunset included,
   * so a service sees who still uses it. It runs on the request: keep it quick and let it not
   * throw (what it throws becomes a 500). Put the plugin after the one that sets `ctx.identity`.
   * @default none
   */
  onDeprecatedCall?: ((call: DeprecatedCall) => void) | undefined;
  /**
   * The API's full semantic version (`'1.4.2'`, spec 9.5), sent on every response as
   * `API-Version`; the path carries only the major. @default not sent
   */
  apiVersion?: string | undefined;
}

/** What the plugin compiled for one route. */
interface RoutePlan {
  deprecation: CompiledDeprecation | undefined;
  versions: VersionTable | undefined;
  byVersion: ReadonlyMap<number, CompiledDeprecation> | undefined;
  /** With `select.vendor`: `Accept` read as negotiation reads it, the versions served offered. */
  media: Offer | undefined;
  /** The vendor types of the versions served, as a 406 lists them. */
  served: string;
}

const applied = Symbol('api-conventions.deprecation');
/** How many `Accept` values each versioned route keeps its choice for, as negotiation's default. */
const mediaCacheSize = 256;
type Marked = Record<symbol, CompiledDeprecation | undefined>;

function selector(select: VersionSelection | undefined) {
  assertKnownKeys('versioning({ select })', select, ['query', 'vendor']);
  const query = select?.query;
  const vendor = select?.vendor;
  if (query !== undefined && (typeof query !== 'string' || !/^[\w.-]+$/.test(query))) {
    throw new TypeError(
      `versioning({ select }): \`query\` must be a parameter name such as 'version'.`,
    );
  }
  if (
    vendor !== undefined &&
    (typeof vendor !== 'string' || !/^[a-z0-9][a-z0-9.-]*$/.test(vendor))
  ) {
    throw new TypeError(
      `versioning({ select }): \`vendor\` must be a lower-case organisation name such as 'acme' (for application/vnd.acme.v2+json).`,
    );
  }
  if (select !== undefined && query === undefined && vendor === undefined) {
    throw new TypeError(`versioning({ select }) needs \`query\`, \`vendor\` or both.`);
  }
  return { query, vendor };
}

/** 406 for an `Accept` that asks for this API's types and names no version the route serves. */
function notAcceptable(ctx: RequestContext, accept: string, plan: RoutePlan): ApiError {
  return new ApiError(
    406,
    ErrorCode.NotAcceptable,
    `Nothing ${ctx.path} serves matches Accept: "${boundedEcho(accept, 100)}"; it serves ${plan.served} (RFC 9110 §15.5.7).`,
  );
}

function unknownVersion(ctx: RequestContext, asked: string, table: VersionTable): ApiError {
  return new ApiError(
    400,
    ErrorCode.UnknownVersion,
    `${ctx.path} has no version "${asked}"; it serves version ${table.versions.join(', ')}.`,
  );
}

/** The plugin of {@link versioning}: version selection and each route's deprecation, compiled once. */
class VersioningPlugin implements Plugin {
  readonly name = 'versioning';
  readonly routeConfig = ['deprecation'];
  /** `API-Version`, when `apiVersion` is given. */
  readonly headers: Readonly<Record<string, string>> | undefined;
  /** The transform phase: the version's media type; absent without `select.vendor`. */
  readonly preSerialization: Plugin['preSerialization'];
  /** The send phase: `onDeprecatedCall`; absent without it. */
  readonly onSend: Plugin['onSend'];
  private readonly query: string | undefined;
  private readonly vendor: string | undefined;
  /** `application/vnd.<vendor>.`, what an `Accept` that asks for this API's types holds. */
  private readonly tree: string | undefined;
  private readonly report: ((call: DeprecatedCall) => void) | undefined;
  private readonly plans = new WeakMap<RouteSettings, RoutePlan>();

  constructor(options: VersioningOptions) {
    assertKnownKeys('versioning()', options, ['select', 'onDeprecatedCall', 'apiVersion']);
    const { query, vendor } = selector(options.select);
    this.query = query;
    this.vendor = vendor;
    this.tree = vendor === undefined ? undefined : `application/vnd.${vendor}.`;
    const report = options.onDeprecatedCall;
    if (report !== undefined && typeof report !== 'function') {
      throw new TypeError('versioning(): `onDeprecatedCall` must be a function (call) => void.');
    }
    this.report = report;
    const { apiVersion } = options;
    if (
      apiVersion !== undefined &&
      (typeof apiVersion !== 'string' || !/^[\w.+-]+$/.test(apiVersion))
    ) {
      throw new TypeError(`versioning(): \`apiVersion\` must be a version such as '1.4.2'.`);
    }
    this.headers = apiVersion === undefined ? undefined : { 'api-version': apiVersion };
    this.preSerialization = vendor === undefined ? undefined : this.typeByVersion;
    this.onSend = report === undefined ? undefined : this.reportCall;
  }

  /** Compiles a route's `deprecation` and its versions at start-up; a mistake is a `TypeError`. */
  onRoute(route: RouteInfo): void {
    const where = `${route.method} ${route.pattern}`;
    const deprecation =
      route.config.deprecation === undefined
        ? undefined
        : compileDeprecation(where, route.pattern, route.config.deprecation);
    const versions = versionTableOf(route.handler);
    if (versions !== undefined && this.query === undefined && this.vendor === undefined) {
      throw new TypeError(
        `Route "${where}" serves versioned() handlers, but versioning() selects no version: pass select: { query: 'version' } or select: { vendor: '<org>' }.`,
      );
    }
    let byVersion: Map<number, CompiledDeprecation> | undefined;
    for (const [version, given] of versions?.deprecations ?? []) {
      byVersion ??= new Map();
      byVersion.set(
        version,
        compileDeprecation(`${where} (version ${version})`, route.pattern, given),
      );
    }
    if (deprecation !== undefined || versions !== undefined) {
      const vendor = this.vendor;
      const list = versions?.versions ?? [];
      // Both formats: which of them the route offers is negotiation's to say, not versioning's.
      const media =
        vendor === undefined || versions === undefined
          ? undefined
          : new Offer(['json', 'xml'], vendor, mediaCacheSize, list, 'any');
      const served = list.map((v) => `application/vnd.${vendor}.v${v}+json`).join(', ');
      this.plans.set(route, { deprecation, versions, byVersion, media, served });
    }
  }

  /** Before the body is read: the version chosen, the deprecation headers, 410 after the sunset. */
  preParsing(ctx: RequestContext): void {
    const plan = ctx.route === undefined ? undefined : this.plans.get(ctx.route);
    if (plan === undefined) return;
    let found = plan.deprecation;
    if (plan.versions !== undefined) {
      const version = this.choose(ctx, plan, plan.versions);
      ctx.state.apiVersion = version;
      found = plan.byVersion?.get(version ?? plan.versions.fallback) ?? found;
    }
    if (found === undefined) return;
    (ctx.state as Marked)[applied] = found;
    const headers = ctx.responseHeaders;
    headers.set('deprecation', found.deprecation);
    headers.set('sunset', found.sunset);
    if (found.successorOf !== undefined) headers.append('link', found.successorOf(ctx.params));
    for (const link of found.links) headers.append('link', link);
    if (Date.now() >= found.sunsetAt) throw found.gone();
  }

  private choose(ctx: RequestContext, plan: RoutePlan, table: VersionTable): number | undefined {
    if (this.vendor !== undefined) ctx.responseHeaders.vary('Accept');
    let asked: string | undefined;
    if (this.query !== undefined) asked = ctx.query.get(this.query) ?? undefined;
    if (asked === undefined && plan.media !== undefined) {
      const accept = ctx.headers.get('accept');
      if (!accept) return undefined;
      // Read as negotiation reads it, in the same bounds (431 past them) and cached per value:
      // the served version of the most acceptable type, weights and wildcards included.
      const chosen = plan.media.negotiate(accept);
      if (chosen !== null) return chosen.version;
      // Nothing acceptable: a request for this API's types (a version nobody serves) is a 406
      // (RFC 9110 §15.5.7); any other is left to negotiation, and gets the default version.
      if (accept.toLowerCase().includes(this.tree!)) throw notAcceptable(ctx, accept, plan);
      return undefined;
    }
    if (asked === undefined) return undefined;
    const version = /^v?\d{1,6}$/i.test(asked) ? Number(asked.replace(/^v/i, '')) : Number.NaN;
    if (!table.versions.includes(version)) throw unknownVersion(ctx, asked, table);
    return version;
  }

  private typeByVersion(ctx: RequestContext, out: OutgoingResponse): void {
    const version = ctx.state.apiVersion;
    // The answer says which version it is; errors keep the error body's own type.
    if (version !== undefined && out.status < 400 && out.type === undefined) {
      out.type = `application/vnd.${this.vendor}.v${version}+json`;
    }
  }

  private reportCall(ctx: RequestContext, sent: SentResponse): void {
    const found = (ctx.state as Marked)[applied];
    if (found === undefined || ctx.route === undefined) return;
    this.report!({
      method: ctx.method,
      route: ctx.route.pattern,
      path: ctx.path,
      version: ctx.state.apiVersion,
      identity: ctx.identity,
      status: sent.status,
      sunset: new Date(found.sunsetAt),
    });
  }
}

/**
 * Versioning and deprecation (spec 9): compiles each route's `config.deprecation` at start-up
 * (a sunset less than 6 months after the announcement is a `TypeError` naming the route), then
 * sends `Deprecation` (RFC 9745), `Sunset` (RFC 8594) and `Link` (successor, documentation) on
 * every answer of a deprecated route, and 410 Gone with the error body from the sunset on.
 * Opt-in, it lets a request choose the version of a {@link versioned} route by query or media type.
 *
 * @example
 * ```ts
 * import { conventions, versioning } from 'api-conventions';
 *
 * const listAuthorsV1 = () => ({ authors: [{ id: '7', name: 'Jane Austen' }], hasNext: false });
 * const listAuthorsV2 = () => ({
 *   authors: [{ id: '7', given: 'Jane', family: 'Austen' }],
 *   hasNext: false,
 * });
 * const api = conventions({
 *   routes: {
 *     '/v1/authors': {
 *       GET: {
 *         handler: listAuthorsV1,
 *         config: {
 *           deprecation: { announced: '2026-01-15', sunset: '2026-09-30', successor: '/v2/authors' },
 *         },
 *       },
 *     },
 *     '/v2/authors': { GET: listAuthorsV2 },
 *   },
 *   plugins: [
 *     versioning({ onDeprecatedCall: (call) => console.info(call.route, call.identity?.subject) }),
 *   ],
 * });
 * ```
 *
 * @category Versioning
 */
export function versioning(options: VersioningOptions = {}): Plugin {
  return ownTransform(new VersioningPlugin(options));
}
