/**
 * The OpenAPI contract, checked live (with --openapi): each response's status, media type and
 * headers are declared for its operation and its JSON body is valid against the declared schema
 * (OpenAPI 3.1 §4.8.16-4.8.17); a parameter value or request body the schema forbids is refused
 * with a 4xx and the spec's error body; a value it allows is accepted. Rules `openapi.status`,
 * `openapi.media-type`, `openapi.headers`, `openapi.schema`, `openapi.negative` and
 * `openapi.positive`; bounded by the request budget.
 */

import { isPageMedia } from '../checks/negotiation.ts';
import type { Exchange } from '../client.ts';
import type { AuditContext } from '../context.ts';
import { budgetSpent } from '../context.ts';
import { answered, errorBodyProblem, excerpt, isJsonType, mediaType } from '../inspect.ts';
import type { Place } from '../report.ts';
import { checkConformance, declaresType } from './conformance.ts';
import { violatingBody, violatingText } from './generate.ts';
import { asPath, type DocumentedPath, exampleOf, type Operation, type Parameter } from './paths.ts';

/** A documented path with the GET the path audit sent, if any. */
interface ContractTarget {
  documented: DocumentedPath;
  get: Exchange | undefined;
}

// Per operation, so that one long parameter list does not spend the budget alone.
const maxNegative = 3;
const maxPositive = 2;

/** The GET's URL with one parameter set to `value` (a path parameter, or a query parameter). */
function withParameter(documented: DocumentedPath, param: Parameter, value: string): string {
  const [path, query = ''] = (documented.concrete ?? '').split('?');
  if (param.in === 'path') {
    const filled = documented.template.replace(/\{([^}]+)\}/g, (_, name: string) =>
      encodeURIComponent(name === param.name ? value : (documented.pathValues[name] ?? '')),
    );
    return `${asPath(filled)}${query ? `?${query}` : ''}`;
  }
  const search = new URLSearchParams(query);
  search.set(String(param.name), value);
  return `${path}?${search}`;
}

/**
 * What is wrong with a refusal's body: the spec's JSON error body (7.1.5), unless the body is in
 * another media type the document declares for that status (XML errors of an `.xml` route).
 */
function refusalProblem(
  ctx: AuditContext,
  op: Operation | undefined,
  ex: Exchange,
): string | undefined {
  if (op !== undefined && !isJsonType(mediaType(ex)) && declaresType(ctx, op, ex)) {
    return undefined;
  }
  return errorBodyProblem(ex);
}

/**
 * The 4xx codes of spec 7.2's table besides 400, each for a reason of its own (a 406 for a format
 * value the API does not offer, a path's 404): any other code for a wrong parameter (a 422) fits
 * none of them, so it is 7.1.4's 400.
 */
const otherRefusals = new Set([401, 403, 404, 405, 406, 408, 409, 410, 413, 414, 415, 429]);

/**
 * Decides `openapi.negative`: what the schema forbids (`what`) is refused with a 4xx. The
 * refusal's status is spec 7.1.4's 400 for a wrong parameter (a 422 is not), and its body the
 * error body of 7.1.5's pattern, each reported under its own rule.
 */
function decideRefusal(
  ctx: AuditContext,
  op: Operation | undefined,
  request: string,
  ex: Exchange,
  what: string,
  place: Place,
  parameter: boolean,
): void {
  const { findings } = ctx;
  const refused = ex.status >= 400 && ex.status < 500;
  findings.decide(
    'openapi.negative',
    request,
    refused ? undefined : `${answered(ex)} to ${what}; expected a 4xx`,
    `refused with ${ex.status}`,
    ex.status,
    refused ? undefined : excerpt(ex.body),
    undefined,
    place,
  );
  if (!refused) return;
  if (parameter && ex.status !== 400 && !otherRefusals.has(ex.status)) {
    findings.fail(
      '7.1.4',
      request,
      `${ex.status} for ${what}: wrong parameters are a 400`,
      ex.status,
      excerpt(ex.body),
      undefined,
      place,
    );
  }
  const problem = refusalProblem(ctx, op, ex);
  findings.decide(
    '7.1.5',
    request,
    problem && `${ex.status}: ${problem}`,
    `${ex.status} with the error body`,
    ex.status,
    problem ? excerpt(ex.body) || '(empty body)' : undefined,
    undefined,
    place,
  );
}

/** Sends the GET with a parameter the schema forbids, then with allowed optional values. */
async function checkParameters(ctx: AuditContext, documented: DocumentedPath): Promise<void> {
  const { findings, client } = ctx;
  const doc = ctx.doc!;
  const op = documented.operations.get;
  if (!op) return;
  const where = `GET ${documented.template}`;
  const place: Place = { method: 'GET', path: documented.template };
  let negatives = 0;
  let positives = 0;
  for (const param of documented.parameters) {
    if (param.in !== 'query' && param.in !== 'path') continue;
    const violation = violatingText(doc, param.schema);
    if (!violation || negatives >= maxNegative) continue;
    negatives++;
    const target = withParameter(documented, param, String(violation.value));
    const request = `GET ${target} (${param.name}: ${violation.why})`;
    const ex = await client.send('GET', target);
    if (!ex) return findings.skip('openapi.negative', request, budgetSpent);
    // A path parameter's value that names nothing may be 404; a query's is 400 (spec 7.1.4).
    decideRefusal(
      ctx,
      op,
      request,
      ex,
      `${param.in} parameter ${param.name} ${violation.why}`,
      place,
      true,
    );
  }
  for (const param of documented.parameters) {
    if (param.in !== 'query' || param.required === true || positives >= maxPositive) continue;
    const example = exampleOf(doc, param);
    if (example === undefined || (typeof example === 'object' && example !== null)) continue;
    positives++;
    const target = withParameter(documented, param, String(example));
    const ex = await client.send('GET', target);
    const request = `GET ${target} (${param.name} from the document)`;
    if (!ex) return findings.skip('openapi.positive', request, budgetSpent);
    findings.decide(
      'openapi.positive',
      request,
      ex.status >= 200 && ex.status < 300
        ? undefined
        : `${answered(ex)} to a value the document allows; expected 2xx`,
      `accepted with ${ex.status}`,
      ex.status,
      excerpt(ex.body),
      undefined,
      place,
    );
    if (ex.status !== 0) checkConformance(ctx, op, ex, where, place);
  }
}

/** With --allow-writes, a POST body the schema forbids is refused with a 4xx and the error body. */
async function checkBody(ctx: AuditContext, documented: DocumentedPath): Promise<void> {
  const { findings, client } = ctx;
  if (!ctx.options.allowWrites || documented.postSchema === undefined) return;
  const violation = violatingBody(ctx.doc!, documented.postSchema);
  if (!violation) return;
  const path = (documented.concrete ?? '').split('?')[0]!;
  const request = `POST ${path} (a body ${violation.why})`;
  const ex = await client.send('POST', path, {
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(violation.value),
  });
  if (!ex) return findings.skip('openapi.negative', request, budgetSpent);
  const place: Place = { method: 'POST', path: documented.template };
  decideRefusal(
    ctx,
    documented.operations.post,
    request,
    ex,
    `a body ${violation.why}`,
    place,
    false,
  );
  // A body that should have been refused and created something is removed.
  const location = ex.status === 201 ? ex.headers.get('location') : null;
  const url = location ? client.reference(location, client.resolve(path)) : undefined;
  if (url && client.isOwn(url)) await client.send('DELETE', url);
}

/** Runs the contract checks on every documented, audited path. */
export async function checkContract(ctx: AuditContext, targets: ContractTarget[]): Promise<void> {
  const rules = ['status', 'media-type', 'headers', 'schema', 'negative', 'positive'];
  if (!ctx.doc || !ctx.findings.wants(...rules.map((r) => `openapi.${r}`))) return;
  for (const { documented, get } of targets) {
    const op = documented.operations.get;
    // A path that answers 404 is reported once, under 4.1, not again as an undeclared status.
    if (op && get && get.status !== 0 && get.status !== 404) {
      checkConformance(ctx, op, get, `GET ${documented.template}`, {
        method: 'GET',
        path: documented.template,
      });
    }
  }
  for (const { documented, get } of targets) {
    // Parameters are judged against a GET that is accepted as it is: on a path that answers 404
    // (reported under 4.1), 401 or 410 to every request, a refusal would prove nothing.
    if (get && get.status >= 200 && get.status < 300 && !isPageMedia(mediaType(get))) {
      await checkParameters(ctx, documented);
    }
    await checkBody(ctx, documented);
  }
}
