/** What every check is given: the client, the findings, the options, and one path's exchanges. */
import type { AuditClient, Exchange, SendInit } from './client.ts';
import type { DocumentedPath } from './openapi/paths.ts';
import type { OpenApiDocument } from './openapi/ref.ts';
import type { ResolvedAuditOptions } from './options.ts';
import type { Findings } from './report.ts';

/** The audit as a whole. */
export interface AuditContext {
  client: AuditClient;
  findings: Findings;
  options: ResolvedAuditOptions;
  /** Set once the service's 404 shows it is built with this library (fixes name the plugin). */
  usesLibrary?: boolean;
  /** The OpenAPI document, when one was given. */
  doc?: OpenApiDocument;
}

/** One audited path and every response it gave, for the checks that look at all of them. */
export interface PathAudit {
  ctx: AuditContext;
  /** The concrete path requested (`/v1/books/1`). */
  path: string;
  /** Methods the OpenAPI document declares for it, when known. */
  declared: readonly string[] | undefined;
  /** What the OpenAPI document says of it, when it documents it. */
  documented: DocumentedPath | undefined;
  /** Every exchange with this path, in order. */
  exchanges: Exchange[];
  /** The plain GET, once sent. */
  get: Exchange | undefined;
  /** The methods its `Allow` names (from OPTIONS or a 405), when known. */
  allow: string[] | undefined;
}

/** Sends a request for a path audit and keeps the exchange. */
export async function probe(
  audit: PathAudit,
  method: string,
  target: string,
  init?: SendInit,
): Promise<Exchange | undefined> {
  const ex = await audit.ctx.client.send(method, target, init);
  if (ex && ex.status !== 0) audit.exchanges.push(ex);
  return ex;
}

/** The detail of a check skipped because the request budget is spent. */
export const budgetSpent = 'not sent: the request budget (--max-requests) is spent';
