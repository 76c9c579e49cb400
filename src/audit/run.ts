/** The audit: options checked, the document read, every path audited, then the service-wide checks. */
import { checkAuthScheme } from './checks/auth-scheme.ts';
import { checkForeignPreflight } from './checks/cors.ts';
import { checkBurst } from './checks/limits.ts';
import { checkLongUri, checkMissing } from './checks/service.ts';
import { checkTokenEndpoint } from './checks/token.ts';
import { checkWrites, type WriteTarget } from './checks/writes.ts';
import { AuditClient } from './client.ts';
import type { AuditContext } from './context.ts';
import { AuditUnreachableError } from './errors.ts';
import { mergeFindings } from './merge.ts';
import { checkContract } from './openapi/contract.ts';
import { generateValue } from './openapi/generate.ts';
import { loadOpenApi } from './openapi/load.ts';
import { type DocumentedPath, documentedPaths } from './openapi/paths.ts';
import { checkDocument } from './openapi/static.ts';
import { type AuditOptions, type ResolvedAuditOptions, resolveAuditOptions } from './options.ts';
import { auditPath, type PathResult } from './path-audit.ts';
import { type AuditReport, type Finding, Findings } from './report.ts';
import { withFixes } from './rules.ts';

interface Target {
  path: string;
  /** What the OpenAPI document says of the path, when it documents it. */
  documented?: DocumentedPath;
}

/**
 * Audits a live API against the conventions, rule by rule, and resolves to every finding.
 * Rejects with a `TypeError` for bad options or an unreadable OpenAPI document, and with
 * {@link AuditUnreachableError} when the base URL (or the document's URL) does not answer.
 *
 * @example
 * ```ts
 * import { audit, formatText } from 'api-conventions/audit';
 *
 * const report = await audit({
 *   baseUrl: 'https://staging.example.com',
 *   paths: ['/v1/books', '/v1/books/1'],
 *   headers: { Authorization: `Bearer ${process.env.API_TOKEN ?? ''}` },
 * });
 * console.log(formatText(report));
 * process.exitCode = report.findings.some((f) => f.outcome === 'fail') ? 1 : 0;
 * ```
 *
 * @category Audit
 *
 * @see [The conformance auditor](../../docs/audit.md): every check and how it is decided.
 */
export async function audit(options: AuditOptions): Promise<AuditReport> {
  const resolved = resolveAuditOptions(options);
  const client = new AuditClient(resolved.base, resolved);
  try {
    return await run(resolved, client);
  } finally {
    client.close();
  }
}

async function run(resolved: ResolvedAuditOptions, client: AuditClient): Promise<AuditReport> {
  const findings = new Findings(resolved);
  const ctx: AuditContext = { client, findings, options: resolved };
  const targets: Target[] = resolved.paths.map((path) => ({ path }));
  if (resolved.openapi !== undefined) {
    const doc = await loadOpenApi(resolved.openapi, client, resolved.timeoutMs);
    ctx.doc = doc;
    checkDocument(findings, doc, resolved.openapi);
    for (const documented of documentedPaths(doc)) {
      if (!documented.methods.includes('GET')) continue;
      if (documented.concrete === undefined) {
        findings.skip(
          '4.1',
          documented.template,
          `not requested: no example value for {${documented.missing}}`,
          { method: 'GET', path: documented.template },
        );
      } else {
        // A path given with --path too keeps what the document says of it.
        const known = targets.find((t) => t.path === documented.concrete);
        if (known) known.documented = documented;
        else targets.push({ path: documented.concrete, documented });
      }
    }
  }
  const baseUrl = resolved.base.origin;
  if (targets.length === 0) {
    return {
      findings: withFixes(mergeFindings(findings.list), false),
      requests: client.spent,
      baseUrl,
    };
  }
  const sample = targets[0]!.path;
  const first = await client.send('GET', sample);
  if (first && first.status === 0) {
    throw new AuditUnreachableError(
      `${client.resolve(sample).href} did not answer: ${first.error}.`,
    );
  }
  const perPath = await Promise.all(
    targets.map((t, i) => auditPath(ctx, t.path, t.documented, i === 0 ? first : undefined)),
  );
  const all: Finding[] = [...findings.list, ...perPath.flatMap((p) => p.findings)];
  const service = new Findings(resolved);
  const serviceCtx = { ...ctx, findings: service };
  await checkMissing(serviceCtx, sample);
  await checkLongUri(serviceCtx, sample);
  await checkForeignPreflight(serviceCtx, sample);
  checkAuthScheme(
    serviceCtx,
    targets.map((t) => t.documented),
  );
  await checkTokenEndpoint(serviceCtx);
  await checkContract(
    serviceCtx,
    targets.flatMap((t, i) =>
      t.documented ? [{ documented: t.documented, get: perPath[i]?.get }] : [],
    ),
  );
  await checkWrites(serviceCtx, await writeTarget(ctx, targets, perPath));
  // The burst spends the rate limit, so it comes last.
  if (service.wants('8.2')) await checkBurst(serviceCtx, sample, first);
  const list = mergeFindings([...all, ...service.list]);
  const usesLibrary = serviceCtx.usesLibrary === true;
  return { findings: withFixes(list, usesLibrary), requests: client.spent, baseUrl };
}

/**
 * The collection the write probes go to: the first audited path whose document or `Allow`
 * has POST; else, when nothing says, the first audited collection whose GET answered 2xx (the
 * probes' bodies are ones a server must refuse, and anything they create is deleted).
 */
async function writeTarget(
  ctx: AuditContext,
  targets: Target[],
  audited: PathResult[],
): Promise<WriteTarget | undefined> {
  if (!ctx.options.allowWrites) return undefined;
  for (const target of targets) {
    const documented = target.documented;
    if (documented?.methods.includes('POST')) {
      const generated =
        documented.postExample === undefined && ctx.doc && documented.postSchema !== undefined
          ? generateValue(ctx.doc, documented.postSchema)
          : undefined;
      return {
        path: target.path.split('?')[0]!,
        example: documented.postExample ?? generated,
        ...(documented.postExample === undefined && generated !== undefined
          ? { generated: true }
          : {}),
      };
    }
  }
  for (const [i, target] of targets.entries()) {
    if (target.documented) continue;
    const allow = audited[i]?.allow;
    if (allow?.includes('POST')) return { path: target.path, example: undefined };
  }
  if (targets.some((t, i) => t.documented || audited[i]?.allow)) return undefined;
  const collection = targets.find(
    (t, i) => audited[i]?.served && !/\/(?:\d+|[0-9a-f-]{36})$/i.test(t.path.split('?')[0]!),
  );
  return collection ? { path: collection.path.split('?')[0]!, example: undefined } : undefined;
}
