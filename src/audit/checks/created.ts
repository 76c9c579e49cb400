/**
 * What a write probe created: the auditor changes it (PATCH, PUT: 200 with the changed data,
 * spec 4.3) and deletes it (204 with no body), and a write accepted without any credentials is
 * reported under spec 5.1.
 */
import type { Exchange } from '../client.ts';
import type { AuditContext } from '../context.ts';
import { budgetSpent } from '../context.ts';
import { answered, excerpt, isParsed, jsonOf } from '../inspect.ts';

/**
 * Spec 5.1: a write the service accepted from a caller who gave no credentials at all is a
 * write nothing authorizes (reported once).
 */
function checkAnonymousWrite(ctx: AuditContext, ex: Exchange): void {
  const { findings, options } = ctx;
  if (options.headers.length > 0 || ex.status < 200 || ex.status >= 300) return;
  if (findings.list.some((f) => f.rule === '5.1' && f.outcome === 'fail')) return;
  findings.fail(
    '5.1',
    `${ex.request} (no credentials)`,
    `a ${ex.method} was accepted (${ex.status}) without any credentials: nothing authorizes writes`,
    ex.status,
  );
}

/**
 * The URL of what a write created: its `Location` (RFC 9110 §10.2.2), else the collection's
 * path and the `id` of a JSON body; undefined when neither says, or it is on another origin.
 */
function createdAt(ctx: AuditContext, path: string, ex: Exchange): URL | string | undefined {
  const { client, findings } = ctx;
  const location = ex.headers.get('location');
  if (location) {
    const url = client.reference(location, client.resolve(path));
    if (url && client.isOwn(url)) return url;
    client.refused.push(url?.href ?? location);
    findings.skip(
      '4.3',
      `DELETE ${location}`,
      `not sent: Location resolves to ${url?.href ?? 'no http(s) URL'}, not the base origin; delete the created resource by hand`,
    );
    return undefined;
  }
  const body = jsonOf(ex) as { id?: unknown } | undefined;
  const id = isParsed(body) ? body?.id : undefined;
  return typeof id === 'string' || typeof id === 'number'
    ? `${path.replace(/\/$/, '')}/${encodeURIComponent(String(id))}`
    : undefined;
}

/**
 * Changes what the audit created, as PATCH (an empty merge patch) and PUT (the body it was
 * created with): each answers 200 with the changed data (spec 4.3), or 202; a method the
 * resource does not have, or a body it refuses, is a skip.
 */
async function checkChanges(ctx: AuditContext, target: URL | string, body: unknown): Promise<void> {
  const { client, findings } = ctx;
  if (!findings.wants('4.3') || body === undefined) return;
  for (const [method, sent] of [
    ['PATCH', {}],
    ['PUT', body],
  ] as const) {
    const ex = await client.send(method, target, {
      headers: {
        'content-type': method === 'PATCH' ? 'application/merge-patch+json' : 'application/json',
      },
      body: JSON.stringify(sent),
    });
    if (!ex) return findings.skip('4.3', `${method} (of what the audit created)`, budgetSpent);
    if (ex.status >= 300 || ex.status === 202 || (ex.status === 200 && ex.body !== '')) {
      if (ex.status === 200 || ex.status === 202) {
        findings.pass(
          '4.3',
          ex.request,
          `${ex.status} with the changed data to a ${method}`,
          ex.status,
        );
      } else {
        findings.skip('4.3', ex.request, `${answered(ex)}: no ${method} to judge`);
      }
      continue;
    }
    findings.fail(
      '4.3',
      ex.request,
      `${answered(ex)}${ex.body === '' ? ' with no body' : ''} to a ${method}; expected 200 with the changed data`,
      ex.status,
    );
  }
}

/**
 * Deletes what a write created, and judges the DELETE's answer: 204 with no body (spec 4.3);
 * before that, with the body it was created with, its PATCH and PUT.
 */
export async function removeCreated(
  ctx: AuditContext,
  path: string,
  ex: Exchange,
  body?: unknown,
): Promise<void> {
  const { client, findings } = ctx;
  checkAnonymousWrite(ctx, ex);
  if (ex.status < 200 || ex.status >= 300) return;
  const target = createdAt(ctx, path, ex);
  if (target === undefined) return;
  await checkChanges(ctx, target, body);
  const deleted = await client.send('DELETE', target);
  if (!deleted || deleted.status === 0) return;
  const problem =
    deleted.status === 204
      ? deleted.body === ''
        ? undefined
        : '204 with a body'
      : deleted.status >= 200 && deleted.status < 300
        ? `${answered(deleted)} to a delete; expected 204 with no body`
        : undefined;
  if (deleted.status >= 200 && deleted.status < 300) {
    findings.decide(
      '4.3',
      deleted.request,
      problem,
      '204 with no body for a delete',
      deleted.status,
      problem ? excerpt(deleted.body) || '(empty body)' : undefined,
    );
  }
}
