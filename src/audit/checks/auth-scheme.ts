/** OAuth 2.0, never API keys (spec 5.1): the schemes the OpenAPI document declares, and the credentials given with --header. */
import type { AuditContext } from '../context.ts';
import type { DocumentedPath, Scheme } from '../openapi/paths.ts';

// Header names that carry an API key rather than an OAuth 2.0 bearer token.
const apiKeyHeader = /^(?:x-)?api[-_]?key$|^x-(?:auth|access)-(?:key|token)$/i;

/** Whether a request header's name says it carries an API key (`X-API-Key`, `apikey`). */
export function isApiKeyHeader(name: string): boolean {
  return apiKeyHeader.test(name);
}

/** What a scheme is, for a finding: `api_key (an API key in the header api_key)`. */
function describe(scheme: Scheme): string {
  if (scheme.type === 'apiKey') {
    return `${scheme.name} (an API key in the ${scheme.in ?? '?'} ${scheme.parameter ?? '?'})`;
  }
  return `${scheme.name} (HTTP ${scheme.scheme ?? '?'})`;
}

/** Whether a scheme is OAuth 2.0 (RFC 6749) or a bearer token (RFC 6750), as spec 5.1 wants. */
function isOAuth(scheme: Scheme): boolean {
  return (
    scheme.type === 'oauth2' ||
    scheme.type === 'openIdConnect' ||
    (scheme.type === 'http' && scheme.scheme === 'bearer')
  );
}

/** Reports the authentication schemes the audited operations accept, and API keys given as --header. */
export function checkAuthScheme(
  ctx: AuditContext,
  documented: readonly (DocumentedPath | undefined)[],
): void {
  const { findings, options } = ctx;
  if (!findings.wants('5.1')) return;
  const schemes = new Map<string, Scheme>();
  for (const path of documented) for (const s of path?.security ?? []) schemes.set(s.name, s);
  const others = [...schemes.values()].filter((s) => !isOAuth(s));
  const keyHeaders = options.headers
    .map(([name, value]) => [name, value] as const)
    .filter(
      ([name, value]) =>
        apiKeyHeader.test(name) || (name === 'authorization' && /^\s*basic\s/i.test(value)),
    )
    .map(([name]) => name);
  if (others.length > 0) {
    findings.fail(
      '5.1',
      'OpenAPI securitySchemes',
      `operations accept ${others.map(describe).join(', ')}: not OAuth 2.0`,
    );
  } else if (schemes.size > 0) {
    findings.pass(
      '5.1',
      'OpenAPI securitySchemes',
      `OAuth 2.0 schemes only (${[...schemes.keys()].join(', ')})`,
    );
  }
  if (keyHeaders.length > 0) {
    findings.fail(
      '5.1',
      `--header ${keyHeaders.join(', ')}`,
      `the credentials are ${keyHeaders.map((h) => (h === 'authorization' ? 'Basic credentials' : `an API key in ${h}`)).join(' and ')}, not an OAuth 2.0 bearer token`,
    );
  } else if (schemes.size === 0 && options.headers.some(([name]) => name === 'authorization')) {
    findings.pass(
      '5.1',
      '--header authorization',
      'the credentials are a bearer token in Authorization',
    );
  }
  if (
    schemes.size === 0 &&
    keyHeaders.length === 0 &&
    !options.headers.some(([n]) => n === 'authorization')
  ) {
    findings.skip(
      '5.1',
      'authentication',
      'no OpenAPI security schemes and no credentials given to judge',
    );
  }
}
