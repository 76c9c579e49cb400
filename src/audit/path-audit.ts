/** Audits one path: its GET, then every probe of it, each check's findings kept in a fixed order. */
import { checkAnonymous, checkMalformedToken } from './checks/auth.ts';
import { checkCacheControl, checkConditional } from './checks/caching.ts';
import { checkRateHeaders } from './checks/limits.ts';
import { checkHead, checkOptions, checkUnsupportedMethod } from './checks/methods.ts';
import { checkJsonDefault, checkNotAcceptable } from './checks/negotiation.ts';
import { pagingNameProblem } from './checks/paging.ts';
import { checkPathShape } from './checks/path-shape.ts';
import { checkPayloads } from './checks/payloads.ts';
import { checkResponses } from './checks/responses.ts';
import { checkPreflight, checkSecurityHeaders } from './checks/security.ts';
import { checkTrailingSlash, checkUpperCase } from './checks/variants.ts';
import { checkDeprecation } from './checks/versioning.ts';
import type { Exchange } from './client.ts';
import { type AuditContext, budgetSpent, type PathAudit } from './context.ts';
import { excerpt } from './inspect.ts';
import type { DocumentedPath } from './openapi/paths.ts';
import { type Finding, Findings } from './report.ts';

type Step = (audit: PathAudit) => unknown;

// The checks that look at every response of a path: any probe feeds them.
const overAll = ['7.1.5', '4.6', '4.7', '4.8', '7.2'];

// Probes that run side by side, each with the rules it decides (it is sent only when one of
// them, or of the checks over all responses, is selected); each list runs in order (a 405
// probe needs OPTIONS' Allow first).
const probes: readonly [rules: string[], steps: Step[]][] = [
  [['4.2'], [checkOptions, checkUnsupportedMethod]],
  [['4.2'], [checkHead]],
  [['4.1.3'], [checkUpperCase]],
  [['4.1.9'], [checkTrailingSlash]],
  [['4.5'], [checkNotAcceptable]],
  [['4.7'], [checkConditional]],
  [
    ['5.8', '5.6'],
    [
      async (audit) => {
        if (await checkAnonymous(audit)) await checkMalformedToken(audit);
      },
    ],
  ],
  [['4.8'], [checkPreflight]],
];

// Checks over what the probes saw, in report order.
const reviews: readonly Step[] = [
  checkPayloads,
  checkJsonDefault,
  checkResponses,
  checkCacheControl,
  checkSecurityHeaders,
  checkRateHeaders,
  checkDeprecation,
];

/** What auditing one path gave: its findings in order, and what later checks need of it. */
export interface PathResult {
  findings: Finding[];
  /** The methods its `Allow` named, when it had one. */
  allow: string[] | undefined;
  /** Whether its GET answered 2xx. */
  served: boolean;
  /** Its plain GET, once sent. */
  get: Exchange | undefined;
}

/** Audits `path`; `first` is its GET when already sent. */
export async function auditPath(
  ctx: AuditContext,
  path: string,
  documented: DocumentedPath | undefined,
  first?: Exchange,
): Promise<PathResult> {
  const audit: PathAudit = {
    ctx,
    path,
    declared: documented?.methods,
    documented,
    exchanges: [],
    get: first,
    allow: undefined,
  };
  // Findings are about the documented template when there is one, so that what the document
  // and the live answers say of one operation is merged into one finding.
  const scope = documented?.template ?? path.split('?')[0]!;
  const own = (): PathAudit => ({
    ...audit,
    ctx: { ...ctx, findings: new Findings(ctx.options, scope) },
  });
  const head = own();
  // A documented path is judged by its template: its concrete values may be made up.
  checkPathShape(head.ctx.findings, documented?.template ?? path, `GET ${path}`);
  // Spec 4.4: the query parameters of the audited path are named as the spec names them.
  for (const name of new Set(new URLSearchParams(path.split('?')[1] ?? '').keys())) {
    const problem = pagingNameProblem(name);
    if (problem) head.ctx.findings.fail('4.4', `GET ${path}`, problem);
  }
  if (!audit.get) audit.get = await ctx.client.send('GET', path);
  if (!audit.get) head.ctx.findings.skip('4.2', `GET ${path}`, budgetSpent);
  else if (audit.get.status !== 0) audit.exchanges.push(audit.get);
  const served = audit.get !== undefined && audit.get.status >= 200 && audit.get.status < 300;
  if (audit.get?.status === 404 && documented?.generated) {
    // The values were made up from the schemas: nothing need be there.
    head.ctx.findings.skip(
      '4.1',
      audit.get.request,
      "not found with parameter values made from the document's schemas (it gives no example)",
    );
    return { findings: head.ctx.findings.list, allow: undefined, served, get: audit.get };
  }
  if (audit.get?.status === 404) {
    // Nothing is there, so every other check of the path would pass or skip on a 404 alone.
    head.ctx.findings.fail(
      '4.1',
      audit.get.request,
      `the audited path answers 404, so none of its checks ran: is it served under this base URL${documented ? " and the document's servers" : ''}?`,
      404,
      excerpt(audit.get.body),
    );
    return { findings: head.ctx.findings.list, allow: undefined, served, get: audit.get };
  }
  // Each probe chain gets its own findings, merged below in this fixed order.
  const chosen = probes.filter(([rules]) => ctx.findings.wants(...rules, ...overAll));
  const chains = chosen.map(([, steps]) => {
    const mine = own();
    const run = async () => {
      for (const step of steps) {
        await step(mine);
        if (mine.allow) audit.allow = mine.allow;
        mine.allow ??= audit.allow;
      }
      return mine.ctx.findings.list;
    };
    return run();
  });
  const probed = await Promise.all(chains);
  const review = own();
  review.allow = audit.allow;
  for (const step of reviews) step(review);
  return {
    findings: [...head.ctx.findings.list, ...probed.flat(), ...review.ctx.findings.list],
    allow: audit.allow,
    served,
    get: audit.get,
  };
}
