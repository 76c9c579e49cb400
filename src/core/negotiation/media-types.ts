/** Picks a response format from `Accept` (RFC 9110 §12.5.1) in bounded work; results cached per value. */
import { BoundedCache } from '../internal/bounded-cache.ts';
import {
  acceptTooLong,
  chooseType,
  type MediaRange,
  maxAcceptLength,
  maxVendorTypes,
  parseAccept,
} from './accept.ts';
import { vendorVersionOf } from './vendor-version.ts';

/**
 * A response format a route may offer: JSON (the default, spec 1) or XML.
 *
 * @category Negotiation
 */
export type Format = 'json' | 'xml';

/**
 * The outcome of negotiation: the format and the media type the response is labelled with (a
 * vendor type the client asked for is echoed, RFC 6839, when the route declares it).
 *
 * @category Negotiation
 */
export interface Chosen {
  /** Which serializer builds the body. */
  readonly format: Format;
  /** The response's `Content-Type`. */
  readonly type: string;
  /** The major version the chosen vendor type names (`application/vnd.acme.v2+json` → 2). */
  readonly version?: number | undefined;
}

/**
 * The media types of each format: the first is the one a response is labelled with.
 *
 * @category Negotiation
 */
export const formatTypes: Readonly<Record<Format, readonly string[]>> = {
  json: ['application/json'],
  xml: ['application/xml', 'text/xml'],
};

const chosenJson: Chosen = Object.freeze({ format: 'json', type: 'application/json' });
const vndPrefix = 'application/vnd.';
// A longer value is negotiated each time it comes rather than kept: the cache stays small.
const maxCachedLength = 512;

/**
 * One route's offer, compiled at start-up: negotiates an `Accept` value once and keeps the
 * answer in a bounded cache, so a value seen before costs one map look-up.
 *
 * @category Negotiation
 */
export class Offer {
  /** The formats offered, the first being the default for `*\/*`. */
  readonly formats: readonly Format[];
  /** Whether the offer is JSON alone: `Accept` absent, `*\/*` or `application/json` need no work. */
  readonly jsonOnly: boolean;
  /** What the offer answers in, as a 406 lists it: built once, at start-up. */
  readonly available: string;
  /** Every media type the offer answers in: its formats' and its vendor types (the document's). */
  readonly mediaTypes: readonly string[];
  private readonly types: string[];
  private readonly declared: ReadonlySet<string>;
  private readonly anyName: boolean;
  private readonly served: ReadonlySet<number>;
  private readonly cache: BoundedCache<string, Chosen | null>;
  private readonly tree: string | undefined;
  private readonly preferred: Chosen;

  /**
   * @param formats - the formats, in order of preference
   * @param vendor - the organisation of the vendor types recognised (`vnd.<vendor>.…`); any when undefined
   * @param cacheSize - how many `Accept` values the cache keeps
   * @param versions - the major versions the route serves (`application/vnd.acme.v1+json`)
   * @param names - the names in the vendor's tree the route declares (`book`:
   *   `application/vnd.acme.book+json`, and `…book.v1+json` for each version); `'any'` offers
   *   every name of the tree that names a version served, which is how versioning reads the
   *   version a type asks for (whether the type is served is negotiation's to say)
   */
  constructor(
    formats: readonly Format[],
    vendor: string | undefined,
    cacheSize: number,
    versions: readonly number[] = [],
    names: readonly string[] | 'any' = [],
  ) {
    this.formats = formats;
    this.jsonOnly = formats.length === 1 && formats[0] === 'json';
    this.types = formats.flatMap((f) => formatTypes[f]);
    this.tree = vendor === undefined ? undefined : `application/vnd.${vendor.toLowerCase()}`;
    const vendorTypes = declaredTypes(this.tree, formats, versions, names === 'any' ? [] : names);
    this.declared = new Set(vendorTypes);
    this.anyName = names === 'any' && this.tree !== undefined;
    this.served = new Set(versions);
    this.mediaTypes = Object.freeze([...this.types, ...vendorTypes]);
    this.cache = new BoundedCache(cacheSize);
    this.preferred = this.fixed(formats[0]!);
    this.available = this.mediaTypes.join(', ');
  }

  /**
   * The format for an `Accept` value; `null` when nothing offered is acceptable (406). Throws a
   * 431 `ApiError` for a value longer than 4,096 characters or with more than 64 media ranges
   * ([Content negotiation](../../../docs/negotiation.md)).
   */
  negotiate(accept: string | null | undefined): Chosen | null {
    if (accept == null) return this.preferred;
    if (this.jsonOnly && (accept === '*/*' || accept === 'application/json')) return chosenJson;
    const known = this.cache.get(accept);
    if (known !== undefined) return known;
    const chosen = this.choose(accept);
    if (accept.length <= maxCachedLength) this.cache.set(accept, chosen);
    return chosen;
  }

  /** How many `Accept` values are cached (for tests of the bound). */
  get cached(): number {
    return this.cache.size;
  }

  private fixed(format: Format): Chosen {
    return format === 'json' ? chosenJson : { format, type: formatTypes[format][0]! };
  }

  private choose(accept: string): Chosen | null {
    // Bounded before any work: the cost below is linear in at most 4,096 characters.
    if (accept.length > maxAcceptLength) throw acceptTooLong(accept.length);
    // An empty field says nothing, as if it were absent (RFC 9110 §12.5.1).
    const trimmed = accept.trim();
    if (trimmed === '') return this.preferred;
    // A lone `*` is no media range, but old clients send it meaning "anything".
    if (trimmed === '*') return this.preferred;
    const ranges = parseAccept(accept);
    const available = [...this.vendorTypes(ranges), ...this.types];
    const at = chooseType(available, ranges);
    if (at < 0) return null;
    const type = available[at]!;
    if (type.startsWith(vndPrefix)) {
      const format = type.endsWith('+xml') ? 'xml' : 'json';
      const version = vendorVersionOf(type, this.tree);
      return version === undefined ? { format, type } : { format, type, version };
    }
    const format = this.formats.find((f) => formatTypes[f].includes(type))!;
    // The first type of a format labels it, but a client that asked for text/xml gets text/xml.
    return type === formatTypes[format][0] ? this.fixed(format) : { format, type };
  }

  /**
   * Vendor types named in `Accept` that the route declares: the first 16 distinct ones, so that
   * they add at most 16 offers. A type it does not declare is left out of the negotiation, as any
   * other type it does not serve: the rest of `Accept` decides, and alone it is a 406
   * (RFC 9110 §12.5.1, §15.5.7). One set look-up per range.
   */
  private vendorTypes(ranges: readonly MediaRange[]): string[] {
    const found: string[] = [];
    if (this.declared.size === 0) return found;
    for (const range of ranges) {
      if (range.type !== 'application' || !range.subtype.startsWith('vnd.')) continue;
      const type = `application/${range.subtype}`;
      if (!(this.declared.has(type) || (this.anyName && this.inTree(type)))) continue;
      if (found.includes(type)) continue;
      found.push(type);
      if (found.length === maxVendorTypes) break;
    }
    return found;
  }

  /** Whether `type` is of the tree, in a format offered, naming a version served (or none). */
  private inTree(type: string): boolean {
    const tree = this.tree!;
    if (!type.startsWith(`${tree}.`) && !type.startsWith(`${tree}+`)) return false;
    if (!this.formats.includes(type.endsWith('+xml') ? 'xml' : 'json')) return false;
    if (!type.endsWith('+json') && !type.endsWith('+xml')) return false;
    const version = vendorVersionOf(type, tree);
    return version === undefined || this.served.has(version);
  }
}

/**
 * The vendor types a route declares, for each format: the tree's own type and its version family
 * (`application/vnd.acme+json`, `application/vnd.acme.v1+json`), then each name and its versions
 * (`application/vnd.acme.book+json`, `application/vnd.acme.book.v1+json`). None without a tree.
 */
function declaredTypes(
  tree: string | undefined,
  formats: readonly Format[],
  versions: readonly number[],
  names: readonly string[],
): string[] {
  if (tree === undefined) return [];
  const out: string[] = [];
  for (const base of ['', ...names.map((n) => `.${n}`)]) {
    for (const version of ['', ...versions.map((v) => `.v${v}`)]) {
      for (const f of formats) out.push(`${tree}${base}${version}+${f}`);
    }
  }
  return out;
}
