/**
 * Every response a conformance suite receives, judged against the OpenAPI document of the
 * service that sent it: the document the service serves at `/v1/openapi`
 * (the bookshelf), else the one `openapi()` builds from its route table. Each exchange must be
 * documented for its path, method and status (or the operation's `default`), in a media type
 * the document names for it, and a JSON body must fit that media type's schema (ajv, JSON
 * Schema 2020-12, formats checked); an XML body is read back into values by its schema's element
 * names (the XML Object, OpenAPI 3.1 §4.8.26) and judged the same way. A `.json`/`.xml` twin,
 * which the document describes on its pattern (`x-format-suffixes`), is judged as that
 * operation in the twin's format.
 */

import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { Conventions } from 'api-conventions';
import { bookshelfDocument } from '../../examples/bookshelf/openapi.ts';
import { openapi } from '../../src/index.ts';
import { readXml } from './_xml-values.ts';

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
  parameters?: { name: string; in: string }[];
  'x-format-suffixes'?: string[];
}

/** What kind of disagreement a problem is. */
export type ProblemKind = 'operation' | 'status' | 'media' | 'body';

/** One response the document does not describe. */
export interface Problem {
  kind: ProblemKind;
  line: string;
}

/** The JSON media types: `application/json` and any `+json` suffix (RFC 6839). */
const isJson = (type: string) => type === 'application/json' || type.endsWith('+json');
/** The XML media types: `application/xml`, `text/xml` and any `+xml` suffix (RFC 7303). */
const isXml = (type: string) =>
  type === 'application/xml' || type === 'text/xml' || type.endsWith('+xml');

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
      return judge(document, exchanges).map((p) => p.line);
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

/**
 * The problems of `exchanges` against `document`. `strict` asks more than the document's own
 * rules do: each status named exactly on its operation (not only by a range or `default`).
 */
export function judge(document: Json, exchanges: readonly Exchange[], strict = false): Problem[] {
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
  const components = (document.components ?? {}) as {
    responses?: Record<string, Json>;
    schemas?: Json;
  };
  const resolve = (response: Json): Json => {
    const ref = response.$ref;
    if (typeof ref !== 'string') return response;
    const name = ref.replace('#/components/responses/', '');
    const found = components.responses?.[name];
    if (found === undefined) throw new Error(`unresolved ${ref}`);
    return found;
  };
  const errorSchema = { $ref: '#/components/schemas/Error' };
  const problems: Problem[] = [];
  for (const e of exchanges) {
    const path = e.target.split('?')[0]!;
    const at = `${e.method} ${e.target} → ${e.status}`;
    const method = e.method === 'HEAD' ? 'get' : e.method.toLowerCase();
    const media = (e.contentType ?? '').split(';')[0]!.trim().toLowerCase();
    // A CORS preflight is no operation (OpenAPI 3.1 §4.8.9), unless the document lists OPTIONS.
    if (e.method === 'OPTIONS' && !Object.values(paths).some((item) => item.options)) continue;
    let template = templateOf(matchers, path);
    let operation = template === undefined ? undefined : paths[template]?.[method];
    // A `.json`/`.xml` twin: the operation of its pattern, in the twin's format (spec 4.5).
    let pinned: string | undefined;
    const twin = /^(.*)\.(json|xml)$/.exec(path);
    if (twin !== null && (operation === undefined || template !== templateOf(matchers, twin[1]!))) {
      const base = templateOf(matchers, twin[1]!);
      const baseOp = base === undefined ? undefined : paths[base]?.[method];
      if (baseOp?.['x-format-suffixes']?.includes(twin[2]!)) {
        template = base;
        operation = baseOp;
        pinned = twin[2];
      }
    }
    let response: Json | undefined;
    let key: string;
    if (operation === undefined) {
      // No such operation: only an error may answer, with the error body (spec 7).
      if (e.status < 400) {
        problems.push({
          kind: 'operation',
          line: `${at}: answered ${e.status} to an operation the document does not list`,
        });
        continue;
      }
      response = { content: { 'application/json': { schema: errorSchema } } };
      key = 'error';
    } else {
      // OpenAPI 3.1 §4.8.16.2: an exact status first, then its range (2XX), then `default`.
      const status = String(e.status);
      const range = `${status[0]}XX`;
      const chosen = [status, range, 'default'].find((k) => operation.responses[k] !== undefined);
      if (chosen === undefined || (strict && chosen !== status)) {
        problems.push({
          kind: 'status',
          line: `${at}: status ${status} is not ${chosen === undefined ? 'documented' : `named (only ${chosen})`} for ${method} ${template}`,
        });
        continue;
      }
      response = resolve(operation.responses[chosen]!);
      key = `${template} ${method} ${chosen}`;
    }
    const content = response.content as Record<string, { schema?: unknown }> | undefined;
    // No body to judge (RFC 9110 §9.3.2, §15.3.5, §15.4.5): a 204 or 304 has none.
    if (e.method === 'HEAD') continue;
    if (e.status === 204 || e.status === 304) {
      if (content !== undefined) {
        problems.push({ kind: 'media', line: `${at}: the document gives a ${e.status} a body` });
      }
      if (e.body !== '') problems.push({ kind: 'body', line: `${at}: a body on a ${e.status}` });
      continue;
    }
    if (content === undefined) {
      if (e.body !== '') {
        problems.push({ kind: 'body', line: `${at}: a body where the document describes none` });
      }
      continue;
    }
    // Exactly the documented type: the document lists every vendor type a route serves.
    const entry = content[media];
    if (entry === undefined || (pinned !== undefined && !media.endsWith(pinned))) {
      problems.push({
        kind: 'media',
        line: `${at}: sent ${media || 'no content type'}, the document offers ${Object.keys(content).join(', ')}`,
      });
      continue;
    }
    // A success to a request the document does not describe (a query parameter it does not list,
    // such as `fields` on a write, docs/openapi.md) is outside what its schema promises.
    if (e.status < 400 && operation !== undefined && !describes(operation, e.target)) continue;
    let value: unknown;
    if (isXml(media)) {
      const read = readXml(e.body, entry.schema as Json, components.schemas ?? {});
      if (read.problems.length > 0) {
        problems.push({
          kind: 'body',
          line: `${at}: the XML does not fit the documented schema: ${read.problems.slice(0, 3).join('; ')} — ${e.body.slice(0, 160)}`,
        });
        continue;
      }
      value = read.value;
    } else if (isJson(media)) {
      try {
        value = JSON.parse(e.body);
      } catch {
        problems.push({
          kind: 'body',
          line: `${at}: a ${media} body that is not JSON: ${e.body.slice(0, 80)}`,
        });
        continue;
      }
    } else {
      continue;
    }
    const validate = validatorOf(`${key} ${media}`, entry.schema ?? {});
    if (!validate(value)) {
      problems.push({
        kind: 'body',
        line: `${at}: the body does not fit the documented schema: ${ajv.errorsText(validate.errors)} — ${e.body.slice(0, 160)}`,
      });
    }
  }
  return problems;
}

/** Whether every query parameter of `target` is one `operation` lists (the format's included). */
function describes(operation: Operation, target: string): boolean {
  const query = target.includes('?') ? target.slice(target.indexOf('?') + 1) : '';
  if (query === '') return true;
  const listed = new Set(
    (operation.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name),
  );
  return [...new URLSearchParams(query).keys()].every((name) => listed.has(name));
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
