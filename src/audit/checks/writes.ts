/**
 * Probes with bodies, only with --allow-writes: 415 for an unsupported type (spec 4.6), 413 for a
 * body over the limit (7.2), and POST → 201 with Location (4.3) when an example body is known.
 * The 415 and 413 bodies can never be stored: one is an unknown type, the other unfinished JSON.
 */
import type { AuditContext } from '../context.ts';
import { budgetSpent } from '../context.ts';
import { answered, errorBodyProblem, excerpt } from '../inspect.ts';

/** A collection to write to: a path whose Allow (or document) has POST, and its example body. */
export interface WriteTarget {
  path: string;
  example: unknown;
}

/** Runs the write probes against `target`, if writes are allowed. */
export async function checkWrites(
  ctx: AuditContext,
  target: WriteTarget | undefined,
): Promise<void> {
  const { findings, client, options } = ctx;
  const rules = ['4.6', '7.2', '4.3'];
  if (!options.allowWrites) {
    for (const rule of rules) findings.skip(rule, 'POST (writes)', 'no --allow-writes');
    return;
  }
  if (!target) {
    for (const rule of rules) findings.skip(rule, 'POST (writes)', 'no audited path allows POST');
    return;
  }
  const { path } = target;
  if (findings.wants('4.6')) {
    const type = 'application/x-api-conventions-audit';
    const ex = await client.send('POST', path, {
      headers: { 'content-type': type },
      body: 'audit',
    });
    const request = `POST ${path} (Content-Type: ${type})`;
    if (!ex) findings.skip('4.6', request, budgetSpent);
    else {
      const problem =
        ex.status !== 415
          ? `${answered(ex)} for an unsupported request type; expected 415`
          : errorBodyProblem(ex);
      findings.decide(
        '4.6',
        request,
        problem,
        '415 with the error body',
        ex.status,
        problem ? excerpt(ex.body) : undefined,
      );
    }
  }
  if (findings.wants('7.2')) {
    const size = 8 << 20;
    const ex = await client.send('POST', path, {
      headers: { 'content-type': 'application/json' },
      body: `{"a":"${'a'.repeat(size)}`,
    });
    const request = `POST ${path} (an 8 MiB body)`;
    if (!ex) findings.skip('7.2', request, budgetSpent);
    else if (ex.status === 413) {
      const problem = errorBodyProblem(ex);
      findings.decide(
        '7.2',
        request,
        problem && `413: ${problem}`,
        '413 with the error body',
        413,
        excerpt(ex.body),
      );
    } else if (ex.status >= 400 && ex.status < 500) {
      findings.skip(
        '7.2',
        request,
        `${answered(ex)}: the service reads 8 MiB bodies, so no 413 to check`,
      );
    } else
      findings.fail('7.2', request, `${answered(ex)} for an 8 MiB body; expected 413`, ex.status);
  }
  if (!findings.wants('4.3')) return;
  if (target.example === undefined) {
    return findings.skip('4.3', `POST ${path}`, 'no example request body in the OpenAPI document');
  }
  const ex = await client.send('POST', path, {
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(target.example),
  });
  if (!ex) return findings.skip('4.3', `POST ${path}`, budgetSpent);
  const location = ex.headers.get('location');
  const problem =
    ex.status !== 201
      ? `${answered(ex)} to a create; expected 201`
      : !location
        ? '201 without Location'
        : undefined;
  findings.decide(
    '4.3',
    ex.request,
    problem,
    `201 with Location: ${location}`,
    ex.status,
    problem ? excerpt(ex.body) : undefined,
  );
  // Leave nothing behind: remove what the audit created, on the base origin only. Location is
  // resolved once against the request's URL (RFC 9110 §10.2.2) and that URL is what is sent.
  if (ex.status === 201 && location) {
    const url = client.reference(location, client.resolve(path));
    if (url && client.isOwn(url)) await client.send('DELETE', url);
    else {
      client.refused.push(url?.href ?? location);
      findings.skip(
        '4.3',
        `DELETE ${location}`,
        `not sent: Location resolves to ${url?.href ?? 'no http(s) URL'}, not the base origin; delete the created resource by hand`,
      );
    }
  }
}
