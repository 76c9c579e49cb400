/** Picks a response format from `Accept` (RFC 9110 §12.5.1) with negotiator; results cached per value. */
import Negotiator from 'negotiator';
import { BoundedCache } from '../internal/bounded-cache.ts';

/**
 * A response format a route may offer: JSON (the default, spec 1) or XML.
 *
 * @category Negotiation
 */
export type Format = 'json' | 'xml';

/**
 * The outcome of negotiation: the format and the media type the response is labelled with (a
 * vendor type the client asked for is echoed, RFC 6839).
 *
 * @category Negotiation
 */
export interface Chosen {
  /** Which serializer builds the body. */
  readonly format: Format;
  /** The response's `Content-Type`. */
  readonly type: string;
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
const vendorType = /application\/vnd\.[a-z0-9][a-z0-9.!#$&^_-]*\+(?:json|xml)\b/gi;
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
  private readonly types: string[];
  private readonly cache: BoundedCache<string, Chosen | null>;
  private readonly vendor: string | undefined;
  private readonly preferred: Chosen;

  /**
   * @param formats - the formats, in order of preference
   * @param vendor - the organisation of the vendor types recognised (`vnd.<vendor>.…`); any when undefined
   * @param cacheSize - how many `Accept` values the cache keeps
   */
  constructor(formats: readonly Format[], vendor: string | undefined, cacheSize: number) {
    this.formats = formats;
    this.jsonOnly = formats.length === 1 && formats[0] === 'json';
    this.types = formats.flatMap((f) => formatTypes[f]);
    this.vendor = vendor?.toLowerCase();
    this.cache = new BoundedCache(cacheSize);
    this.preferred = this.fixed(formats[0]!);
  }

  /** The format for an `Accept` value; `null` when nothing offered is acceptable (406). */
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
    // An empty field says nothing, as if it were absent (RFC 9110 §12.5.1).
    const trimmed = accept.trim();
    if (trimmed === '') return this.preferred;
    // A lone `*` is no media range, but old clients send it meaning "anything".
    if (trimmed === '*') return this.preferred;
    const available = [...this.vendorTypes(accept), ...this.types];
    const type = new Negotiator({ headers: { accept } }).mediaType(available);
    if (type === undefined) return null;
    const lower = type.toLowerCase();
    if (lower.startsWith('application/vnd.')) {
      return { format: lower.endsWith('+xml') ? 'xml' : 'json', type: lower };
    }
    const format = this.formats.find((f) => formatTypes[f].includes(lower))!;
    // The first type of a format labels it, but a client that asked for text/xml gets text/xml.
    return lower === formatTypes[format][0] ? this.fixed(format) : { format, type: lower };
  }

  /** Vendor types named in `Accept` whose suffix (RFC 6839) is a format offered. */
  private vendorTypes(accept: string): string[] {
    if (!accept.includes('vnd.')) return [];
    const found: string[] = [];
    for (const match of accept.matchAll(vendorType)) {
      const type = match[0].toLowerCase();
      const format = type.endsWith('+xml') ? 'xml' : 'json';
      if (!this.formats.includes(format)) continue;
      const tree = `application/vnd.${this.vendor}`;
      if (
        this.vendor !== undefined &&
        !type.startsWith(`${tree}.`) &&
        !type.startsWith(`${tree}+`)
      ) {
        continue;
      }
      if (!found.includes(type)) found.push(type);
    }
    return found;
  }
}
