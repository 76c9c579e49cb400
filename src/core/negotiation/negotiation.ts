/** The negotiation plugin: a route's format from `format=`, a suffix or `Accept`, else 406 (spec 4.5). */
import { ApiError } from '../errors/api-error.ts';
import { ErrorCode } from '../errors/catalogue.ts';
import type { OutgoingResponse } from '../http/response.ts';
import { assertInteger, assertKnownKeys } from '../internal/options.ts';
import type { RequestContext } from '../kernel/context.ts';
import { ownTransform } from '../kernel/own-transforms.ts';
import type { Plugin, Serializer } from '../kernel/plugin.ts';
import type { RouteInfo } from '../kernel/route-table.ts';
import type { RouteSettings } from '../kernel/route-types.ts';
import { boundedEcho } from '../paths/echo.ts';
import { type Chosen, type Format, formatTypes, Offer } from './media-types.ts';
import { relabel, type ServedVersions, servedVersionsOf, versionsOf } from './vendor-version.ts';
import { createXmlSerializer, type XmlOptions } from './xml.ts';

/**
 * Options of {@link negotiation}.
 *
 * @category Negotiation
 */
export interface NegotiationOptions {
  /** The formats a route offers unless its `formats` setting says otherwise. @default ['json'] */
  formats?: readonly Format[];
  /** The query parameter that picks a format (`?format=xml`); `false` for none. @default 'format' */
  query?: string | false;
  /**
   * The organisation whose vendor media types the routes serve: every route then serves the
   * tree's own type (`application/vnd.<vendor>+json`) and one per version it serves
   * (`application/vnd.<vendor>.v1+json`), and a route with a `vendorTypes` setting the names it
   * declares (`application/vnd.<vendor>.book+json`, `….book.v1+json`); each is echoed as the
   * `Content-Type` and listed in the OpenAPI document. No other vendor type is served (406 when
   * nothing else in `Accept` is). Without it, no vendor type is served. @default none
   */
  vendor?: string;
  /** Options of the XML serializer. @default the serializer's defaults */
  xml?: XmlOptions;
  /** How many distinct `Accept` values each offer keeps its answer for. @default 256 */
  cacheSize?: number;
}

const known = ['formats', 'query', 'vendor', 'xml', 'cacheSize'];
// A name of the vendor's tree: `book`, `book.summary`; a `v<N>` part would name a version.
const vendorName = /^[a-z0-9][a-z0-9-]*(?:\.[a-z0-9][a-z0-9-]*)*$/;
const namesVersion = /(?:^|\.)v\d+(?:\.|$)/;
const allFormats: readonly Format[] = ['json', 'xml'];
// RFC 9110 §9.3.5: a DELETE answers 204 with no representation; nothing to negotiate.
const noRepresentation = new Set(['DELETE', 'OPTIONS']);

function checkFormats(where: string, formats: unknown): readonly Format[] {
  if (
    !Array.isArray(formats) ||
    formats.length === 0 ||
    formats.some((f) => !allFormats.includes(f)) ||
    new Set(formats).size !== formats.length
  ) {
    throw new TypeError(
      `${where} must be a non-empty list of distinct formats from ${allFormats.map((f) => `'${f}'`).join(', ')}, such as ['json', 'xml']; got ${JSON.stringify(formats)}.`,
    );
  }
  return Object.freeze([...formats]) as readonly Format[];
}

/** The plugin of {@link negotiation}: its offers, compiled once, and each route's. */
class NegotiationPlugin implements Plugin {
  readonly name = 'negotiation';
  readonly routeConfig = ['formats', 'formatSuffix', 'suffixes', 'vendorTypes'];
  readonly serializers: Readonly<Record<string, Serializer>>;
  private readonly formats: readonly Format[];
  private readonly query: string | false;
  private readonly vendor: string | undefined;
  private readonly cacheSize: number;
  private readonly offers = new Map<string, Offer>();
  private readonly fallback: Offer;
  /**
   * One look-up per request: the route's offer, its pinned format for a suffix twin, and the
   * versions of its `versioned()` handler.
   */
  private readonly byRoute = new WeakMap<
    RouteSettings,
    { offer: Offer; pinned: Chosen | undefined; table: ServedVersions | undefined }
  >();
  /** `format=`, the query parameter's marker; `''` without one. */
  private readonly marker: string;

  constructor(options: NegotiationOptions) {
    assertKnownKeys('negotiation()', options, known);
    this.formats = checkFormats('negotiation() formats', options.formats ?? ['json']);
    const query = options.query ?? 'format';
    if (query !== false && (typeof query !== 'string' || !/^[a-z][a-z0-9_-]*$/.test(query))) {
      throw new TypeError(
        `negotiation() query must be a lower-case parameter name such as 'format', or false; got ${String(query)}.`,
      );
    }
    this.query = query;
    const vendor = options.vendor;
    if (
      vendor !== undefined &&
      (typeof vendor !== 'string' || !/^[a-z0-9][a-z0-9-]*$/i.test(vendor))
    ) {
      throw new TypeError(
        `negotiation() vendor must be an organisation name such as 'acme'; got ${String(vendor)}.`,
      );
    }
    this.vendor = vendor;
    this.cacheSize = assertInteger('negotiation() cacheSize', options.cacheSize ?? 256, 1, 100_000);
    const xml = createXmlSerializer(options.xml);
    this.serializers = { 'application/xml': xml, 'text/xml': xml };
    this.fallback = this.offerOf(this.formats, []);
    this.marker = query === false ? '' : `${query}=`;
  }

  /**
   * Compiles a route's `formats`, `formatSuffix` and `vendorTypes` at start-up; a mistake is a
   * `TypeError`.
   */
  onRoute(route: RouteInfo): void {
    const where = `Route "${route.method} ${route.pattern}"`;
    const { formats: own, formatSuffix } = route.config;
    const names = this.namesOf(where, route.config.vendorTypes);
    const list = own === undefined ? this.formats : checkFormats(`${where} formats`, own);
    let pinned: Chosen | undefined;
    if (formatSuffix !== undefined) {
      if (!list.includes(formatSuffix)) {
        throw new TypeError(
          `${where}: formatSuffix '${String(formatSuffix)}' is not among its formats (${list.join(', ')}).`,
        );
      }
      pinned = { format: formatSuffix, type: formatTypes[formatSuffix][0]! };
    }
    const table = servedVersionsOf(route.handler);
    const offer = this.offerOf(list, versionsOf(route, table), names);
    this.byRoute.set(route, { offer, pinned, table });
  }

  /**
   * The media types `route` answers in, for the OpenAPI document: exactly the ones it serves,
   * each format's and each vendor type it declares, so that the document and the service agree.
   */
  mediaTypes(route: RouteInfo): readonly string[] {
    const known = this.byRoute.get(route);
    // A `.json`/`.xml` twin answers in its format whatever `Accept` says.
    if (known?.pinned !== undefined) return [known.pinned.type];
    return (known?.offer ?? this.fallback).mediaTypes;
  }

  /** Before the body is read: the format the request asks for, or 406. */
  preParsing(ctx: RequestContext): void {
    const route = ctx.route;
    if (route === undefined || noRepresentation.has(ctx.method)) return;
    const known = this.byRoute.get(route);
    if (known?.pinned !== undefined) {
      ctx.state.format = known.pinned;
      return;
    }
    const offer = known?.offer ?? this.fallback;
    // The answer depends on Accept on every route: say so to caches.
    if (ctx.hasResponseHeaders) ctx.responseHeaders.vary('Accept');
    else ctx.responseHeaders.record.vary = 'Accept';
    const chosen = this.fromQuery(ctx, offer) ?? offer.negotiate(ctx.headers.get('accept'));
    if (chosen === null) {
      throw new ApiError(
        406,
        ErrorCode.NotAcceptable,
        `Nothing this resource offers matches Accept: "${boundedEcho(ctx.headers.get('accept') ?? '', 100)}". It is available as ${offer.available}.`,
      );
    }
    ctx.state.format = chosen;
  }

  /** The transform phase: the chosen media type, for the serializer. */
  preSerialization(ctx: RequestContext, out: OutgoingResponse): void {
    const chosen = ctx.state.format;
    if (chosen === undefined || chosen.type === 'application/json' || out.type !== undefined) {
      return;
    }
    const body = out.body;
    if (typeof body === 'string' || body instanceof Uint8Array) return;
    if (chosen.version === undefined) {
      out.type = chosen.type;
      return;
    }
    // A versioned() route answers in the version versioning chose (by query or media type) or
    // in its default: the label names that version, never one the body is not in.
    const table = ctx.route === undefined ? undefined : this.byRoute.get(ctx.route)?.table;
    const served = table === undefined ? chosen.version : (ctx.state.apiVersion ?? table.fallback);
    out.type =
      served === chosen.version ? chosen.type : relabel(chosen.type, chosen.version, served);
  }

  private offerOf(
    list: readonly Format[],
    versions: readonly number[],
    names: readonly string[] = [],
  ): Offer {
    const key = `${list.join(',')} ${versions.join(',')} ${names.join(',')}`;
    let offer = this.offers.get(key);
    if (offer === undefined) {
      offer = new Offer(list, this.vendor, this.cacheSize, versions, names);
      this.offers.set(key, offer);
    }
    return offer;
  }

  /** A route's `vendorTypes`, checked: names in the vendor's tree that name no version. */
  private namesOf(where: string, names: unknown): readonly string[] {
    if (names === undefined) return [];
    if (this.vendor === undefined) {
      throw new TypeError(
        `${where}: vendorTypes needs the organisation of the types: negotiation({ vendor: 'acme' }).`,
      );
    }
    if (
      !Array.isArray(names) ||
      names.some((n) => typeof n !== 'string' || !vendorName.test(n) || namesVersion.test(n))
    ) {
      throw new TypeError(
        `${where}: vendorTypes must be a list of lower-case names in the vendor's tree, such as ['book'] for application/vnd.${this.vendor}.book+json, naming no version (v1: the route's path or versioned() says which it serves); got ${JSON.stringify(names)}.`,
      );
    }
    return Object.freeze([...new Set(names as string[])].sort());
  }

  private fromQuery(ctx: RequestContext, offer: Offer): Chosen | undefined {
    const marker = this.marker;
    if (marker === '' || !ctx.rawQuery.includes(marker)) return undefined;
    const query = this.query as string;
    const value = ctx.query.get(query);
    if (value === null) return undefined;
    const format = offer.formats.find((f) => f === value.toLowerCase());
    if (format === undefined) {
      throw new ApiError(
        406,
        ErrorCode.FormatNotOffered,
        `The format "${boundedEcho(value, 40)}" is not offered here; use ${offer.formats.map((f) => `${query}=${f}`).join(' or ')}.`,
      );
    }
    return { format, type: formatTypes[format][0]! };
  }
}

/**
 * Content negotiation (spec 4.5, RFC 9110 §12): each route offers JSON (the default and the answer
 * to `*\/*`) and, where its `formats` setting says so, XML. The format comes from the `format`
 * query parameter, from a `.json`/`.xml` suffix ({@link withFormatSuffixes}), or from `Accept`;
 * a vendor type is served, and echoed as the `Content-Type`, only where the route declares it:
 * the `vendor` tree's own type and its versions the route serves (its path's `/v1`, or its
 * `versioned()` handler's), and the names of its `vendorTypes` setting
 * (`application/vnd.acme.book+json`). The OpenAPI document lists exactly these. Nothing
 * acceptable is a 406 whose body (in JSON) lists what is offered. Each route's answer to an `Accept` value is computed once and
 * kept in a bounded cache. JSONP is never offered ([Content negotiation](../../../docs/negotiation.md) says why).
 *
 * @example
 * ```ts
 * import { conventions, defineRoutes, listOf, negotiation } from 'api-conventions';
 *
 * const routes = defineRoutes({ '/v1/books': { GET: () => listOf('books', [], { hasNext: false }) } });
 *
 * const api = conventions({ routes, plugins: [negotiation({ formats: ['json', 'xml'] })] });
 * ```
 *
 * @category Negotiation
 */
export function negotiation(options: NegotiationOptions = {}): Plugin {
  return ownTransform(new NegotiationPlugin(options));
}
