/** The audit: options checked, the document read, every path audited, then the service-wide checks. */
import { checkBurst } from './checks/limits.ts';
import { checkLongUri, checkMissing } from './checks/service.ts';
import { checkTokenEndpoint } from './checks/token.ts';
import { checkWrites, type WriteTarget } from './checks/writes.ts';
import { AuditClient } from './client.ts';
import type { AuditContext } from './context.ts';
import { AuditUnreachableError } from './errors.ts';
import { loadOpenApi } from './openapi/load.ts';
import { documentedPaths } from './openapi/paths.ts';
import { checkDocument } from './openapi/static.ts';
import { type AuditOptions, resolveAuditOptions } from './options.ts';
import { auditPath } from './path-audit.ts';
import { type AuditReport, type Finding, Findings } from './report.ts';

interface Target {
  path: string;
  declared: readonly string[] | undefined;
  postExample?: unknown;
}

/**
 * Audits a live API against the conventions, rule by rule, and resolves to every finding.
 * Rejects with a `TypeError` for bad options or an unreadable OpenAPI document, and with
 * {@link AuditUnreachableError} when the base URL (or the document's URL) does not answer.
 *
 * @category Audit
 */
export async function audit(options: AuditOptions): Promise<AuditReport> {
  const resolved = resolveAuditOptions(options);
  const client = new AuditClient(resolved.base, resolved);
  const findings = new Findings(resolved.only);
  const ctx: AuditContext = { client, findings, options: resolved };
  const targets: Target[] = resolved.paths.map((path) => ({ path, declared: undefined }));
  if (resolved.openapi !== undefined) {
    const doc = await loadOpenApi(resolved.openapi, client, resolved.timeoutMs);
    checkDocument(findings, doc, resolved.openapi);
    for (const documented of documentedPaths(doc)) {
      if (!documented.methods.includes('GET')) continue;
      if (documented.concrete === undefined) {
        findings.skip(
          '4.1',
          documented.template,
          `not requested: no example value for {${documented.missing}}`,
        );
      } else {
        const found = {
          path: documented.concrete,
          declared: documented.methods,
          postExample: documented.postExample,
        };
        // A path given with --path too keeps the document's methods and example.
        const known = targets.find((t) => t.path === documented.concrete);
        if (known) Object.assign(known, found);
        else targets.push(found);
      }
    }
  }
  if (targets.length === 0) return { findings: findings.list, requests: client.spent };
  const sample = targets[0]!.path;
  const first = await client.send('GET', sample);
  if (first && first.status === 0) {
    throw new AuditUnreachableError(
      `${client.resolve(sample).href} did not answer: ${first.error}.`,
    );
  }
  const perPath = await Promise.all(
    targets.map((t, i) => auditPath(ctx, t.path, t.declared, i === 0 ? first : undefined)),
  );
  const all: Finding[] = [...findings.list, ...perPath.flat()];
  const service = new Findings(resolved.only);
  const serviceCtx = { ...ctx, findings: service };
  await checkMissing(serviceCtx, sample);
  await checkLongUri(serviceCtx, sample);
  await checkTokenEndpoint(serviceCtx);
  await checkWrites(serviceCtx, await writeTarget(ctx, targets));
  // The burst spends the rate limit, so it comes last.
  if (service.wants('8.2')) await checkBurst(serviceCtx, sample, first);
  return { findings: [...all, ...service.list], requests: client.spent };
}

/** The first audited collection that takes POST, by its document or its OPTIONS answer. */
async function writeTarget(ctx: AuditContext, targets: Target[]): Promise<WriteTarget | undefined> {
  if (!ctx.options.allowWrites) return undefined;
  for (const target of targets) {
    if (target.declared?.includes('POST'))
      return { path: target.path, example: target.postExample };
  }
  for (const target of targets) {
    if (target.declared) continue;
    const ex = await ctx.client.send('OPTIONS', target.path);
    const allow = (ex?.headers.get('allow') ?? '').toUpperCase();
    if (/\bPOST\b/.test(allow)) return { path: target.path, example: undefined };
  }
  return undefined;
}
