/** A route's deprecation, checked and turned into its response headers once, at start-up (spec 9.8). */
import { ApiError } from '../errors/api-error.ts';
import { ErrorCode } from '../errors/catalogue.ts';
import { assertKnownKeys } from '../internal/options.ts';

/**
 * The deprecation of one endpoint (one route, or one version of a {@link versioned} handler):
 * when it was announced, when it ends, what replaces it and where it is explained. Declared in
 * a route's `config.deprecation` and compiled by the {@link versioning} plugin at start-up.
 *
 * @example
 * ```ts
 * import type { Deprecation } from 'api-conventions';
 * const deprecation: Deprecation = {
 *   announced: '2026-01-15',
 *   sunset: '2026-09-30',
 *   successor: '/v2/authors',
 *   documentation: 'https://api.example.com/docs/changes#authors-v2',
 * };
 * ```
 *
 * @category Versioning
 */
export interface Deprecation {
  /**
   * When the deprecation was (or will be) announced: a `Date` or an ISO 8601 date
   * (`'2026-01-15'`, UTC) or date-time. Sent as `Deprecation: @<epoch seconds>` (RFC 9745 §2).
   */
  announced: string | Date;
  /**
   * The end date, sent as `Sunset` (RFC 8594 §3); from then on the endpoint answers 410 Gone.
   * At least 6 calendar months after `announced` (spec 9.8), or start-up fails.
   */
  sunset: string | Date;
  /**
   * The endpoint that replaces this one, sent as `Link: <…>; rel="successor-version"`: a URI or
   * a route pattern whose `:name` parameters are this route's (`/v2/authors/:id`). `null` says
   * that nothing replaces it (a retired resource), which keeps the route lint quiet.
   * @default undefined (the route lint warns)
   */
  successor?: string | null | undefined;
  /** Where the deprecation is explained, sent as `Link: <…>; rel="deprecation"` (RFC 9745 §3). @default none */
  documentation?: string | undefined;
  /**
   * Where the end of service is explained, sent as `Link: <…>; rel="sunset"` (RFC 8594 §6).
   * @default `documentation`
   */
  sunsetDocumentation?: string | undefined;
}

/** A deprecation compiled for the request path: header values built once. */
export interface CompiledDeprecation {
  /** The route, `METHOD /pattern`, for messages and reports. */
  readonly where: string;
  /** When the endpoint stops being served, in epoch milliseconds. */
  readonly sunsetAt: number;
  /** `@<epoch seconds>`. */
  readonly deprecation: string;
  /** The sunset as an HTTP-date. */
  readonly sunset: string;
  /** `Link` values that never change. */
  readonly links: readonly string[];
  /** The successor link of a pattern with parameters, filled in per request. */
  readonly successorOf: ((params: Readonly<Record<string, string>>) => string) | undefined;
  /** The 410 answered from the sunset on. */
  gone(): ApiError;
}

const keys = ['announced', 'sunset', 'successor', 'documentation', 'sunsetDocumentation'];
const isoDate = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2}))?$/;
// RFC 8288 §3: the target sits between < and >; nothing in it may end the link or the header.
const linkTarget = /^[^\s<>"]+$/;

function dateOf(where: string, key: string, value: unknown): number {
  const time =
    value instanceof Date
      ? value.getTime()
      : typeof value === 'string' && isoDate.test(value)
        ? Date.parse(value)
        : Number.NaN;
  if (Number.isNaN(time)) {
    throw new TypeError(
      `${where}: \`${key}\` must be a Date or an ISO 8601 date such as '2026-01-15'; got ${JSON.stringify(value) ?? String(value)}.`,
    );
  }
  return time;
}

/**
 * The same instant `months` calendar months later (UTC), on the last day of the month when the
 * month is shorter: 31 August plus 6 months is 28 (or 29) February.
 *
 * @category Versioning
 */
export function addMonths(time: number, months: number): number {
  const date = new Date(time);
  const day = date.getUTCDate();
  date.setUTCDate(1);
  date.setUTCMonth(date.getUTCMonth() + months);
  const last = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
  date.setUTCDate(Math.min(day, last));
  return date.getTime();
}

function linkOf(where: string, key: string, value: unknown): string {
  if (typeof value !== 'string' || !linkTarget.test(value)) {
    throw new TypeError(
      `${where}: \`${key}\` must be a URI or a path such as '/v2/authors', without spaces, quotes or angle brackets; got ${JSON.stringify(value) ?? String(value)}.`,
    );
  }
  return value;
}

/** The successor link: fixed, or filled with the request's parameters when the pattern has some. */
function successorLink(
  where: string,
  pattern: string,
  successor: string,
): { fixed?: string; of?: CompiledDeprecation['successorOf'] } {
  const pieces = successor.split(/:([A-Za-z_$][\w$]*)/);
  if (pieces.length === 1) return { fixed: `<${successor}>; rel="successor-version"` };
  const names = pieces.filter((_, i) => i % 2 === 1);
  for (const name of names) {
    if (pattern.startsWith('/') && !new RegExp(`[:*]${name}(?![\\w$])`).test(pattern)) {
      throw new TypeError(
        `${where}: the successor '${successor}' uses the parameter :${name}, which the route's pattern does not have.`,
      );
    }
  }
  return {
    of: (params) => {
      let link = '<';
      for (let i = 0; i < pieces.length; i++) {
        link += i % 2 === 0 ? pieces[i]! : encodeURIComponent(params[pieces[i]!] ?? '');
      }
      return `${link}>; rel="successor-version"`;
    },
  };
}

/**
 * Checks a deprecation and builds its headers once. `where` names the route (`GET /v1/authors`).
 * A sunset less than 6 months after the announcement is a `TypeError` (spec 9.8).
 *
 * @category Versioning
 */
export function compileDeprecation(
  where: string,
  pattern: string,
  value: unknown,
): CompiledDeprecation {
  const at = `Route "${where}" deprecation`;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new TypeError(
      `${at} must be an object such as { announced: '2026-01-15', sunset: '2026-07-15', successor: '/v2/…' }.`,
    );
  }
  assertKnownKeys(at, value, keys);
  const given = value as Deprecation;
  const announced = dateOf(at, 'announced', given.announced);
  const sunsetAt = dateOf(at, 'sunset', given.sunset);
  const earliest = addMonths(announced, 6);
  if (sunsetAt < earliest) {
    const day = (t: number) => new Date(t).toISOString().slice(0, 10);
    throw new TypeError(
      `${at}: the sunset ${day(sunsetAt)} is less than 6 months after the announcement ${day(announced)}; an endpoint stays served at least 6 months after its deprecation is announced (spec 9.8). Move the sunset to ${day(earliest)} or later.`,
    );
  }
  const links: string[] = [];
  let successorOf: CompiledDeprecation['successorOf'];
  if (given.successor !== undefined && given.successor !== null) {
    const { fixed, of } = successorLink(at, pattern, linkOf(at, 'successor', given.successor));
    if (fixed !== undefined) links.push(fixed);
    successorOf = of;
  }
  if (given.documentation !== undefined) {
    links.push(`<${linkOf(at, 'documentation', given.documentation)}>; rel="deprecation"`);
  }
  const sunsetDoc = given.sunsetDocumentation ?? given.documentation;
  if (sunsetDoc !== undefined) {
    links.push(`<${linkOf(at, 'sunsetDocumentation', sunsetDoc)}>; rel="sunset"`);
  }
  const sunset = new Date(sunsetAt).toUTCString();
  const instead =
    typeof given.successor === 'string'
      ? ` Use ${given.successor} instead.`
      : given.documentation !== undefined
        ? ` See ${given.documentation}.`
        : '';
  const message = `${where} was retired on ${sunset}.${instead}`;
  return {
    where,
    sunsetAt,
    // RFC 9745 §2.1: a Structured Field Date, whole seconds since the epoch.
    deprecation: `@${Math.floor(announced / 1000)}`,
    sunset,
    links,
    successorOf,
    gone: () => new ApiError(410, ErrorCode.Retired, message),
  };
}
