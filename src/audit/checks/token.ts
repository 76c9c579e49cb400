/** The token endpoint (spec 4.9, RFC 6749 §5): it refuses a client without credentials, and with --client issues a bearer token, never cached. */
import type { Exchange } from '../client.ts';
import type { AuditContext } from '../context.ts';
import { budgetSpent } from '../context.ts';
import { answered, excerpt, isParsed, jsonOf } from '../inspect.ts';

const form = { 'content-type': 'application/x-www-form-urlencoded' };
const grant = 'grant_type=client_credentials';

/** The token endpoint from RFC 8414 metadata when it is on the base origin, else the spec's path. */
async function findEndpoint(ctx: AuditContext): Promise<string | undefined> {
  const ex = await ctx.client.send('GET', '/.well-known/oauth-authorization-server');
  if (!ex) return undefined;
  const meta = ex.status === 200 ? (jsonOf(ex) as { token_endpoint?: unknown }) : undefined;
  if (isParsed(meta) && typeof meta?.token_endpoint === 'string') {
    try {
      const url = new URL(meta.token_endpoint, ctx.client.base);
      // Credentials go to the base origin only.
      if (ctx.client.isOwn(url)) return `${url.pathname}${url.search}`;
    } catch {
      // A malformed token_endpoint: fall back to the spec's path.
    }
  }
  return '/v1/oauth2/token';
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
  const endpoint = await findEndpoint(ctx);
  if (!endpoint) return findings.skip('4.9', 'POST /v1/oauth2/token', budgetSpent);
  const refused = await client.send('POST', endpoint, {
    credentials: false,
    headers: form,
    body: grant,
  });
  const request = `POST ${endpoint} (no client credentials)`;
  if (!refused) return findings.skip('4.9', request, budgetSpent);
  if (refused.status === 404 || refused.status === 405) {
    return findings.skip('4.9', request, `no token endpoint (${refused.status})`);
  }
  const error = (jsonOf(refused) as { error?: unknown } | undefined)?.error;
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
  const ex = await client.send('POST', endpoint, {
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
