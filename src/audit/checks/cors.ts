/**
 * CORS from an origin nobody allowed (spec 4.8): a preflight from a foreign origin must not be
 * answered with that origin and `Access-Control-Allow-Credentials: true`, which lets any web
 * page read the API with the visitor's cookies or credentials (the Fetch standard's CORS check).
 */
import type { AuditContext } from '../context.ts';
import { budgetSpent } from '../context.ts';
import { answered } from '../inspect.ts';

/** An origin no service allows: `.invalid` is reserved (RFC 6761 §6.4). */
const foreignOrigin = 'https://api-conventions-audit.invalid';

/** Sends a credentialed preflight from {@link foreignOrigin} to `path`. */
export async function checkForeignPreflight(ctx: AuditContext, path: string): Promise<void> {
  const { findings, client } = ctx;
  if (!findings.wants('4.8')) return;
  const request = `OPTIONS ${path} (CORS preflight from ${foreignOrigin})`;
  const ex = await client.send('OPTIONS', path, {
    credentials: false,
    headers: {
      origin: foreignOrigin,
      'access-control-request-method': 'GET',
      'access-control-request-headers': 'authorization',
    },
  });
  if (!ex) return findings.skip('4.8', request, budgetSpent);
  if (ex.status === 0) return findings.skip('4.8', request, answered(ex));
  const allowOrigin = ex.headers.get('access-control-allow-origin');
  const credentials = ex.headers.get('access-control-allow-credentials')?.trim().toLowerCase();
  const reflected = allowOrigin === foreignOrigin || allowOrigin === 'null';
  findings.decide(
    '4.8',
    request,
    reflected && credentials === 'true'
      ? 'a preflight from any origin is allowed with credentials: any web page can read the API as its visitor'
      : undefined,
    reflected
      ? 'an unknown origin is allowed, but without credentials'
      : 'an unknown origin is not allowed',
    ex.status,
    `Access-Control-Allow-Origin: ${allowOrigin ?? '(absent)'}, Access-Control-Allow-Credentials: ${credentials ?? '(absent)'}`,
  );
}
