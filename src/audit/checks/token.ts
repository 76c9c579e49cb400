/** The token endpoint (spec 4.9, RFC 6749 §5): it refuses a client without credentials, and with --client issues a bearer token, never cached. */
import type { Exchange } from '../client.ts';
import type { AuditContext } from '../context.ts';
import { budgetSpent } from '../context.ts';
import { answered, excerpt, isParsed, jsonOf } from '../inspect.ts';

const form = { 'content-type': 'application/x-www-form-urlencoded' };
const grant = 'grant_type=client_credentials';

/** Where the token endpoint is, and what the metadata said when it was not used. */
interface Endpoint {
  url: URL;
  /** Whether RFC 8414 metadata named it (else it is the spec's path, tried). */
  named?: boolean;
  /** Why the metadata's `token_endpoint` was not used, when it was not. */
  refused?: string;
}

/**
 * The token endpoint from RFC 8414 metadata when it resolves to the base origin, else the spec's
 * path. The metadata's URL is resolved once and sent as that URL: a `token_endpoint` of
 * `https://api.example.com//evil.example/steal` is a path of the base origin, never a host.
 */
async function findEndpoint(ctx: AuditContext): Promise<Endpoint | undefined> {
  const { client } = ctx;
  const where = client.resolve('/.well-known/oauth-authorization-server');
  const ex = await client.send('GET', where);
  if (!ex) return undefined;
  const fallback = client.resolve('/v1/oauth2/token');
  const meta = ex.status === 200 ? (jsonOf(ex) as { token_endpoint?: unknown }) : undefined;
  if (!isParsed(meta) || typeof meta?.token_endpoint !== 'string') return { url: fallback };
  const url = client.reference(meta.token_endpoint, where);
  if (url && client.isOwn(url)) return { url, named: true };
  // Credentials go to the base origin only: the endpoint elsewhere is reported, not asked.
  client.refused.push(url?.href ?? meta.token_endpoint);
  return {
    url: fallback,
    refused: `RFC 8414 metadata puts the token endpoint at ${url?.href ?? JSON.stringify(meta.token_endpoint)}, not on the base origin: nothing was sent there`,
  };
}

/** What is wrong with a token response (RFC 6749 §5.1, spec 4.9), or undefined. */
function tokenProblem(ex: Exchange): string | undefined {
  if (ex.status !== 200) return `${answered(ex)}; expected 200 with a token`;
  const body = jsonOf(ex) as Record<string, unknown>;
  if (!isParsed(body) || typeof body !== 'object' || body === null)
    return 'the answer is not a JSON object';
  if (typeof body.access_token !== 'string') return 'no access_token';
  if (typeof body.token_type !== 'string' || body.token_type.toLowerCase() !== 'bearer')
    return `token_type is ${JSON.stringify(body.token_type)}, not bearer`;
  if (typeof body.expires_in !== 'number') return 'no numeric expires_in';
  if (!/\bno-store\b/i.test(ex.headers.get('cache-control') ?? ''))
    return 'the token answer lacks Cache-Control: no-store';
  if (!/\bno-cache\b/i.test(ex.headers.get('pragma') ?? ''))
    return 'the token answer lacks Pragma: no-cache';
  return undefined;
}

/** Checks the token endpoint's refusal, and with client credentials its token. */
export async function checkTokenEndpoint(ctx: AuditContext): Promise<void> {
  const { findings, client, options } = ctx;
  if (!findings.wants('4.9')) return;
  const found = await findEndpoint(ctx);
  if (!found) return findings.skip('4.9', 'POST /v1/oauth2/token', budgetSpent);
  if (found.refused)
    findings.skip('4.9', 'GET /.well-known/oauth-authorization-server', found.refused);
  const endpoint = `${found.url.pathname}${found.url.search}`;
  const refused = await client.send('POST', found.url, {
    credentials: false,
    headers: form,
    body: grant,
  });
  const request = `POST ${endpoint} (no client credentials)`;
  if (!refused) return findings.skip('4.9', request, budgetSpent);
  if (refused.status === 404 || refused.status === 405) {
    return findings.skip('4.9', request, `no token endpoint (${refused.status})`);
  }
  if (refused.status >= 500 && !(refused.status === 503 && refused.headers.has('retry-after'))) {
    // A server error is the service failing a request it should answer, token endpoint or not.
    return findings.fail(
      '7.2',
      request,
      `${answered(refused)}: a server error for a token request without credentials`,
      refused.status,
      excerpt(refused.body) || '(empty body)',
    );
  }
  const refusal = jsonOf(refused);
  if (!found.named && !isParsed(refusal)) {
    // Nothing named a token endpoint and the answer is no OAuth error of any shape (an API-key
    // gate's "Unauthorized", a page): there is no token endpoint here to judge.
    return findings.skip(
      '4.9',
      request,
      `no token endpoint: ${answered(refused)}, not an OAuth error, and no RFC 8414 metadata names one`,
    );
  }
  const error = (refusal as { error?: unknown } | undefined)?.error;
  const problem =
    refused.status !== 400 && refused.status !== 401
      ? `${answered(refused)} to a client without credentials; expected 401 (or 400)`
      : typeof error !== 'string'
        ? 'the refusal has no RFC 6749 "error" member'
        : undefined;
  findings.decide(
    '4.9',
    request,
    problem,
    `refused with ${refused.status} ${String(error)}`,
    refused.status,
    problem ? excerpt(refused.body) : undefined,
  );
  const withClient = `POST ${endpoint} (${grant})`;
  if (!options.client)
    return findings.skip('4.9', withClient, 'no --client id:secret to ask for a token with');
  const basic = Buffer.from(
    `${encodeURIComponent(options.client.id)}:${encodeURIComponent(options.client.secret)}`,
  ).toString('base64');
  const ex = await client.send('POST', found.url, {
    credentials: false,
    headers: { ...form, authorization: `Basic ${basic}` },
    body: grant,
  });
  if (!ex) return findings.skip('4.9', withClient, budgetSpent);
  const bad = tokenProblem(ex);
  findings.decide(
    '4.9',
    withClient,
    bad,
    '200 with a bearer token, expires_in, no-store and no-cache',
    ex.status,
    bad ? excerpt(ex.body) : undefined,
  );
}
