/**
 * Probes with bodies, only with --allow-writes: 415 for an unsupported type (spec 4.6), 413 for a
 * body over the limit (7.2), and POST → 201 with Location, then DELETE → 204 (4.3), with the
 * document's example body or, without one, a body made from its schema. The 415 and 413 bodies
 * can never be stored by a conforming service: one is an unknown type, the other unfinished
 * JSON; whatever a probe created anyway is deleted.
 */
import type { AuditContext } from '../context.ts';
import { budgetSpent } from '../context.ts';
import { answered, errorBodyProblem, errorText, excerpt } from '../inspect.ts';
import { removeCreated } from './created.ts';

// What an error says of a body refused for its size.
const tooLarge = /too (?:large|big|long)|exceed|size|limit/i;

/** A collection to write to, and the body to create with, when one is known. */
export interface WriteTarget {
  path: string;
  example: unknown;
  /** Whether `example` was made from the document's schema rather than given by it. */
  generated?: boolean;
}

/** Runs the write probes against `target`, if writes are allowed. */
export async function checkWrites(
  ctx: AuditContext,
  target: WriteTarget | undefined,
): Promise<void> {
  const { findings, options } = ctx;
  const rules = ['4.6', '7.2', '4.3'];
  if (!options.allowWrites) {
    for (const rule of rules) findings.skip(rule, 'POST (writes)', 'no --allow-writes');
    return;
  }
  if (!target) {
    for (const rule of rules) findings.skip(rule, 'POST (writes)', 'no audited path allows POST');
    return;
  }
  if (findings.wants('4.6')) await probeUnsupportedType(ctx, target.path);
  if (findings.wants('7.2')) await probeTooLarge(ctx, target.path);
  if (findings.wants('4.3')) await probeCreate(ctx, target);
}

/** Spec 4.6: a body of a type the service does not read is a 415 with the error body. */
async function probeUnsupportedType(ctx: AuditContext, path: string): Promise<void> {
  const { findings, client } = ctx;
  const type = 'application/x-api-conventions-audit';
  const ex = await client.send('POST', path, {
    headers: { 'content-type': type },
    body: 'audit',
  });
  const request = `POST ${path} (Content-Type: ${type})`;
  if (!ex) return findings.skip('4.6', request, budgetSpent);
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
    // The 415 is required; its body's shape is spec 7.1.5's pattern.
    ex.status === 415 ? 'pattern' : 'required',
  );
  await removeCreated(ctx, path, ex);
}

/** Spec 7.2: a body over the service's limit is a 413, not a 400, and never stored. */
async function probeTooLarge(ctx: AuditContext, path: string): Promise<void> {
  const { findings, client } = ctx;
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
      'pattern',
    );
  } else if (ex.status === 400 && (ex.early || tooLarge.test(errorText(ex) ?? ''))) {
    // Refused before the body was read, or said to be too large: the size was judged, and a
    // body too big is 413 (spec 7.2), not 400.
    findings.fail(
      '7.2',
      request,
      `400 for an 8 MiB body${ex.early ? ' it refused before reading it' : ' it calls too large'}: a body too big is 413`,
      400,
      excerpt(ex.body),
    );
  } else if (ex.status >= 400 && ex.status < 500) {
    findings.skip(
      '7.2',
      request,
      `${answered(ex)}: the service reads 8 MiB bodies, so no 413 to check`,
    );
  } else {
    findings.fail('7.2', request, `${answered(ex)} for an 8 MiB body; expected 413`, ex.status);
    await removeCreated(ctx, path, ex);
  }
}

/** Spec 4.3: a create is a 201 with `Location`; what it made is removed again. */
async function probeCreate(ctx: AuditContext, target: WriteTarget): Promise<void> {
  const { findings, client } = ctx;
  const { path } = target;
  if (target.example === undefined) {
    return findings.skip(
      '4.3',
      `POST ${path}`,
      'no example request body in the OpenAPI document, and none could be made from its schema',
    );
  }
  const request = target.generated
    ? `POST ${path} (a body made from the document's schema)`
    : `POST ${path}`;
  const ex = await client.send('POST', path, {
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(target.example),
  });
  if (!ex) return findings.skip('4.3', request, budgetSpent);
  const location = ex.headers.get('location');
  const problem =
    ex.status !== 201
      ? `${answered(ex)} to a create; expected 201`
      : !location
        ? '201 without Location'
        : undefined;
  findings.decide(
    '4.3',
    request,
    problem,
    `201 with Location: ${location}`,
    ex.status,
    problem ? excerpt(ex.body) : undefined,
    // Spec 4.3 requires the 201; a Location for the new item is RFC 9110 §15.3.2's way to name
    // it, which the spec does not ask for.
    ex.status === 201 ? 'pattern' : 'required',
  );
  // Leave nothing behind: remove what the audit created, on the base origin only.
  await removeCreated(ctx, path, ex, target.example);
}
