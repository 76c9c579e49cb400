/**
 * What each rule asks and how to fix a failure of it, for the reports: the text and JSON outputs
 * give the fix beside each failure, JUnit and SARIF carry it as help, and where the service is
 * built with this library the fix names the plugin or helper that does it.
 */
import { type Finding, isViolation } from './report.ts';

/** One rule as the reports describe it. */
interface RuleHelp {
  /** A short name (`Lower-case paths`). */
  title: string;
  /** How to fix a failure, for any service. */
  fix: string;
  /** What to add or use where the service is built with api-conventions. */
  library?: string;
}

const help: Record<string, RuleHelp> = {
  '2.6': {
    title: 'RFC 3339 dates',
    fix: 'Send dates and times as RFC 3339 text (2026-11-23T21:00:00Z), not epoch numbers or local formats.',
    library:
      'declare the field as a date-time in the route body rules; a Date in a response is written as RFC 3339.',
  },
  '2.7': {
    title: 'Lists inside an object',
    fix: 'Wrap a list in an object: {"books":[…],"hasNext":false}, never a bare array.',
    library: 'return listOf(name, items, meta).',
  },
  '2.8': {
    title: 'hasNext on paged lists',
    fix: 'Give every paged list a flag telling whether a next page exists: a boolean hasNext.',
    library: 'return listOf(name, items, { hasNext }), or config.list with the payloads() plugin.',
  },
  '4.4': {
    title: 'Query parameters',
    fix: 'Name the paging parameters as spec 4.4 does: page and per_page, or limit and offset.',
    library: 'use parsePageParams() (page, per_page, limit, offset).',
  },
  '4.1': {
    title: 'Paths',
    fix: "Audit paths the service serves: check the base URL and the OpenAPI document's servers.",
  },
  '4.1.2': {
    title: 'No implementation extensions',
    fix: 'Drop script names and extensions such as .php from paths.',
  },
  '4.1.3': {
    title: 'Lower-case paths',
    fix: 'Use lower-case paths, and answer an upper-case one with 404, not a redirect.',
    library: 'the core answers 404 (40402) on every host; run lintRoutes on your routes.',
  },
  '4.1.4': {
    title: 'Plural collections',
    fix: 'Name collections with plural nouns (/books, /books/{id}).',
    library: 'run lintRoutes on your routes.',
  },
  '4.1.5': {
    title: 'Nothing to encode',
    fix: 'Use only unreserved characters in paths: no spaces or %20.',
  },
  '4.1.6': {
    title: 'Hyphens between words',
    fix: 'Join words with hyphens (book-imports), not underscores or camelCase.',
  },
  '4.1.9': {
    title: 'Avoid redirects',
    fix: 'Serve each resource at one URI: a trailing-slash variant is 404, not a redirect or a second copy.',
  },
  '4.2': {
    title: 'Methods',
    fix: 'Answer OPTIONS with Allow, a method the path does not have with 405 and Allow, and HEAD like GET without a body.',
    library:
      "routes in the route table get OPTIONS, HEAD and 405 from the core; on your own routes, use the adapter's guard.",
  },
  '4.3': {
    title: 'Success statuses',
    fix: 'Answer a create with 201 and Location, a delete with 204 and no body.',
    library: 'return created(location, data) and noContent().',
  },
  '4.5': {
    title: 'Choosing the format',
    fix: 'Answer JSON by default and 406 with the error body to an Accept you cannot satisfy.',
    library: 'add the negotiation() plugin.',
  },
  '4.6': {
    title: 'Media types',
    fix: 'Label every body with its media type (application/json for JSON), and refuse a request body of a type you do not take with 415.',
    library: 'the core reads bodies by media type and answers 415 (41500).',
  },
  '4.7': {
    title: 'Caching',
    fix: "Send Date and a Cache-Control with the spec's directives on every response, and 304 to a request with your own validator.",
    library: 'add the caching() plugin.',
  },
  '4.8': {
    title: 'Security headers',
    fix: 'Send X-Content-Type-Options: nosniff, X-Frame-Options: deny, X-XSS-Protection and a Content-Security-Policy; HSTS over HTTPS; answer CORS only for the origins you allow, never with credentials to any origin.',
    library:
      'add the securityHeaders() plugin, and cors({ origins: [...] }) for the origins you allow.',
  },
  '4.9': {
    title: 'Token endpoint',
    fix: 'Refuse a client without credentials with 401 and an RFC 6749 error; issue bearer tokens with expires_in and Cache-Control: no-store.',
    library: 'use oauthServer().',
  },
  '5.1': {
    title: 'OAuth 2.0',
    fix: 'Authenticate with OAuth 2.0 bearer tokens (RFC 6749, RFC 6750), not API keys or Basic credentials.',
    library: 'add bearer() (and oauthServer() to issue tokens).',
  },
  '5.6': {
    title: 'Expired tokens',
    fix: 'Answer a malformed or expired token with 401 and WWW-Authenticate: Bearer error="invalid_token".',
    library: 'add bearer().',
  },
  '5.8': {
    title: '401 or 403',
    fix: 'Answer an unknown caller with 401 and a Bearer challenge; keep 403 for a known caller who may not.',
    library: 'add bearer(); throw unauthorized() or forbidden().',
  },
  '7.1.1': {
    title: 'The status is the outcome',
    fix: 'Answer a failure with its 4xx or 5xx status, never a 200 with the error inside.',
    library: 'throw the ApiError helpers (badRequest(), notFound()…).',
  },
  '7.1.3': {
    title: 'Say what is missing',
    fix: "Name what was not found in a 404's message.",
    library: 'throw notFound(message).',
  },
  '7.1.4': {
    title: 'Wrong parameters are 400',
    fix: 'Answer wrong or malformed parameters with 400 (not 422), with the error body.',
    library: 'throw badRequest(); the body rules of a route answer 400.',
  },
  '7.1.5': {
    title: 'One error body',
    fix: 'Send every error as {"errors":[{"message": string, "code": integer}]}.',
    library: "throw ApiError helpers; the core sends this body for the host's errors too.",
  },
  '7.2': {
    title: 'Status codes',
    fix: 'Answer an over-long URI with 414, an over-large body with 413, both with the error body; never a 5xx to a request the service should answer.',
    library:
      'the core answers 413 and 414 (set bodyLimit); a 500 is a thrown error the logger records.',
  },
  '8.2': {
    title: '429',
    fix: 'Past the rate limit, answer 429 with Retry-After and the error body.',
    library: 'add rateLimit().',
  },
  '8.3': {
    title: 'Rate-limit headers',
    fix: 'Send X-RateLimit-Limit, -Remaining and -Reset together, as whole numbers that agree.',
    library: 'add rateLimit().',
  },
  '9.1': {
    title: 'Version in the path',
    fix: 'Put the major version first in every path (/v1/books).',
  },
  '9.8': {
    title: 'Ending a version',
    fix: 'Send Deprecation (@seconds) and Sunset (an HTTP-date) at least six months apart.',
    library: 'use versioning() with a sunset.',
  },
  openapi: {
    title: 'The OpenAPI contract',
    fix: 'Make the service and its OpenAPI document agree: declare every status, media type, header and schema the service sends, and refuse what the schemas forbid.',
    library: 'serve the document generated by openapi(api) so it follows the routes.',
  },
};

/** The help of a rule: its own, else its section's (`4.1.3` → `4.1` → `4`). */
export function helpFor(rule: string): RuleHelp {
  for (let parts = rule.split('.'); parts.length > 0; parts = parts.slice(0, -1)) {
    const found = help[parts.join('.')];
    if (found) return found;
  }
  return { title: `Rule ${rule}`, fix: `See rule ${rule} in docs/conventions.md.` };
}

/** The fix of a failure: the rule's, and with this library the plugin to add. */
export function fixFor(rule: string, usesLibrary: boolean): string {
  const { fix, library } = helpFor(rule);
  return usesLibrary && library ? `${fix} With api-conventions: ${library}` : fix;
}

/** Gives each violation (failure or warning) its fix. */
export function withFixes(findings: Finding[], usesLibrary: boolean): Finding[] {
  return findings.map((f) => (isViolation(f) ? { ...f, fix: fixFor(f.rule, usesLibrary) } : f));
}
