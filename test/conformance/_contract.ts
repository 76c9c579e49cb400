/**
 * Every response a conformance suite receives, judged against the OpenAPI document of the
 * service that sent it (issue 22, item 5): the document the service serves at `/v1/openapi`
 * (the bookshelf), else the one `openapi()` builds from its route table. Each exchange must be
 * documented for its path, method and status (or the operation's `default`), in a media type
 * the document names for it, and a JSON body must fit that media type's schema (ajv, JSON
 * Schema 2020-12, formats checked). XML bodies are checked for their media type only: JSON
 * Schema cannot judge XML.
 */

import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { Conventions } from 'api-conventions';
import { bookshelfDocument } from '../../examples/bookshelf/openapi.ts';
import { openapi } from '../../src/index.ts';

/** One response as a test received it. */
export interface Exchange {
  method: string;
  /** The request target, query included. */
  target: string;
  status: number;
  contentType: string | null;
  body: string;
}

/** Records the responses of a server under test, and judges them against its document. */
export interface ContractRecorder {
  /** Keeps a copy of `res` (its body read from a clone, never from what the test reads). */
  record(method: string, target: string, res: Response): void;
  /** Every problem found, one line each; empty when every response fits. */
  problems(document: Record<string, unknown>): Promise<string[]>;
  /** How many responses were judged. */
  readonly count: number;
}

type Json = Record<string, unknown>;

interface Operation {
  responses: Record<string, Json>;
}

/** The JSON media types: `application/json` and any `+json` suffix (RFC 6839). */
const isJson = (type: string) => type === 'application/json' || type.endsWith('+json');

/** A recorder whose copies are bounded: a stream that never ends is left out after 2 s. */
export function contractRecorder(): ContractRecorder {
  const pending: Promise<Exchange | undefined>[] = [];
  return {
    get count() {
      return pending.length;
    },
    record(method, target, res) {
      const copy = res.clone();
      const read = copy.text().then(
        (body): Exchange => ({
          method,
          target,
          status: res.status,
          contentType: res.headers.get('content-type'),
          body,
        }),
        () => undefined,
      );
      const bound = new Promise<undefined>((resolve) => {
        setTimeout(resolve, 2000, undefined).unref();
      });
      pending.push(Promise.race([read, bound]));
    },
    async problems(document) {
      const exchanges = (await Promise.all(pending)).filter((e): e is Exchange => e !== undefined);
      return judge(document, exchanges);
    },
  };
}

/**
 * The document a suite's responses are judged against: the bookshelf's own (what it serves at
 * `/v1/openapi`, built here from the same `api` so a rate limit a suite used up cannot hide
 * it), else the one `openapi()` builds from the route table.
 */
export function documentOf(api: Conventions): Json {
  if (api.routes.some((r) => r.pattern === '/v1/openapi' && r.method === 'GET')) {
    return bookshelfDocument(api);
  }
  return openapi(api, { info: { title: 'Under test', version: '1' } });
}

/** The document's path templates, most specific first, as patterns. */
function pathMatchers(paths: Json) {
  return Object.keys(paths)
    .map((template) => {
      const params = (template.match(/\{[^}]+\}/g) ?? []).length;
      const source = template
        .split(/\{[^}]+\}/)
        .map((s) => s.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))
        .join('[^/]+');
      const last = source.lastIndexOf('[^/]+');
      const wide =
        last === -1
          ? undefined
          : new RegExp(`^${source.slice(0, last)}.+${source.slice(last + 5)}$`);
      return { template, params, literal: template.length, re: new RegExp(`^${source}$`), wide };
    })
    .sort((a, b) => a.params - b.params || b.literal - a.literal);
}

function judge(document: Json, exchanges: Exchange[]): string[] {
  const ajv = new Ajv2020({ strict: false, allErrors: false });
  addFormats.default(ajv);
  ajv.addSchema({ $id: 'doc', components: document.components }, 'doc');
  const compiled = new Map<string, ValidateFunction>();
  const validatorOf = (key: string, schema: unknown): ValidateFunction => {
    let fn = compiled.get(key);
    if (fn === undefined) {
      fn = ajv.compile(rebase(schema) as object);
      compiled.set(key, fn);
    }
    return fn;
  };
  const paths = (document.paths ?? {}) as Record<string, Record<string, Operation>>;
  const matchers = pathMatchers(paths);
  const components = (document.components ?? {}) as { responses?: Record<string, Json> };
  const resolve = (response: Json): Json => {
    const ref = response.$ref;
    if (typeof ref !== 'string') return response;
    const name = ref.replace('#/components/responses/', '');
    const found = components.responses?.[name];
    if (found === undefined) throw new Error(`unresolved ${ref}`);
    return found;
  };
  const errorSchema = { $ref: '#/components/schemas/Error' };
  const problems: string[] = [];
  for (const e of exchanges) {
    const path = e.target.split('?')[0]!;
    const at = `${e.method} ${e.target} → ${e.status}`;
    const method = e.method === 'HEAD' ? 'get' : e.method.toLowerCase();
    if (e.method === 'OPTIONS') continue; // CORS preflights are not operations (OpenAPI 3.1 §4.8.9)
    const media = (e.contentType ?? '').split(';')[0]!.trim().toLowerCase();
    const template = templateOf(matchers, path);
    const operation = template === undefined ? undefined : paths[template]?.[method];
    let response: Json | undefined;
    let key: string;
    if (operation === undefined) {
      // No such operation: only an error may answer, with the error body (spec 7).
      if (e.status < 400) {
        problems.push(`${at}: answered ${e.status} to an operation the document does not list`);
        continue;
      }
      response = { content: { 'application/json': { schema: errorSchema } } };
      key = 'error';
    } else {
      // OpenAPI 3.1 §4.8.16.2: an exact status first, then its range (2XX), then `default`.
      const status = String(e.status);
      const range = `${status[0]}XX`;
      const chosen = [status, range, 'default'].find((k) => operation.responses[k] !== undefined);
      if (chosen === undefined) {
        problems.push(`${at}: status ${status} is not documented for ${method} ${template}`);
        continue;
      }
      response = resolve(operation.responses[chosen]!);
      key = `${template} ${method} ${chosen}`;
    }
    // No body to judge (RFC 9110 §9.3.2, §15.3.5, §15.4.5).
    if (e.method === 'HEAD' || e.status === 204 || e.status === 304) continue;
    const content = response.content as Record<string, { schema?: unknown }> | undefined;
    if (content === undefined) {
      if (e.body !== '') problems.push(`${at}: a body where the document describes none`);
      continue;
    }
    const entry = content[media] ?? content[vendorTreeOf(media)];
    if (entry === undefined) {
      problems.push(
        `${at}: sent ${media || 'no content type'}, the document offers ${Object.keys(content).join(', ')}`,
      );
      continue;
    }
    if (!isJson(media)) continue;
    let value: unknown;
    try {
      value = JSON.parse(e.body);
    } catch {
      problems.push(`${at}: a ${media} body that is not JSON: ${e.body.slice(0, 80)}`);
      continue;
    }
    const validate = validatorOf(`${key} ${media}`, entry.schema ?? {});
    if (!validate(value)) {
      problems.push(
        `${at}: the body does not fit the documented schema: ${ajv.errorsText(validate.errors)} — ${e.body.slice(0, 160)}`,
      );
    }
  }
  return problems;
}

/**
 * `application/vnd.acme.book+json` → `application/vnd.acme+json`: the document names a vendor
 * tree by its own type, which stands for every name in it (docs/openapi.md).
 */
function vendorTreeOf(media: string): string {
  const m = /^application\/vnd\.([a-z0-9-]+)\.[^+]+\+(json|xml)$/.exec(media);
  return m === null ? media : `application/vnd.${m[1]}+${m[2]}`;
}

/**
 * The template a request path is served by: percent-encoded unreserved characters decoded as the
 * router decodes them (RFC 3986 §6.2.2.2), one segment per parameter, else the last parameter
 * spanning segments (a `*name` wildcard).
 */
function templateOf(matchers: ReturnType<typeof pathMatchers>, raw: string): string | undefined {
  const path = raw.replace(/%([0-9A-Fa-f]{2})/g, (m, hex: string) => {
    const c = String.fromCharCode(Number.parseInt(hex, 16));
    return /[A-Za-z0-9\-._~]/.test(c) ? c : m;
  });
  return (
    matchers.find((m) => m.re.test(path)) ?? matchers.find((m) => m.wide?.test(path) ?? false)
  )?.template;
}

/** `#/components/…` references made absolute to the document added as `doc`. */
function rebase(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(rebase);
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: Json = {};
  for (const [k, v] of Object.entries(schema)) {
    out[k] = k === '$ref' && typeof v === 'string' && v.startsWith('#/') ? `doc${v}` : rebase(v);
  }
  return out;
}
