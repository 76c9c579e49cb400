/**
 * Requests drawn from an OpenAPI document, seeded: for each operation, its path parameters,
 * query parameters, headers and body made from their schemas, most of them valid, the others
 * broken in the ways clients break them (a wrong type, a value out of range, a missing member,
 * an unknown parameter, malformed JSON, a media type the operation does not read, no
 * credentials or bad ones). Values a schema cannot know (a book that exists, a password) come
 * from `known`, by parameter or member name.
 */

type Json = Record<string, unknown>;

/** A seeded source of numbers (mulberry32): the same seed draws the same requests. */
export class Random {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  /** A number in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  /** Whether an event of probability `p` happens. */
  chance(p: number): boolean {
    return this.next() < p;
  }
  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  /** One of `list`. */
  pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.next() * list.length)]!;
  }
}

/** One operation of the document. */
export interface Operation {
  method: string;
  path: string;
  op: Json;
}

/** One request to send. */
export interface Drawn {
  method: string;
  target: string;
  headers: Record<string, string>;
  body?: string;
}

/** Values by name that make requests meaningful: ids that exist, credentials. */
export type Known = Record<string, () => readonly string[]>;

/** What the fuzzer is given of the service: the document, known values and credentials. */
export interface FuzzContext {
  document: Json;
  known: Known;
  /** `Authorization` values by kind: `bearer` (good tokens), `basic` (good client credentials). */
  credentials: { bearer: () => readonly string[]; basic: readonly string[] };
}

/** Every operation of the document, OPTIONS included. */
export function operationsOf(document: Json): Operation[] {
  const out: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths as Record<string, Json>)) {
    for (const [method, op] of Object.entries(item))
      out.push({ method: method.toUpperCase(), path, op: op as Json });
  }
  return out;
}

function resolve(schema: unknown, document: Json): Json {
  const s = (schema ?? {}) as Json;
  const ref = s.$ref;
  if (typeof ref === 'string' && ref.startsWith('#/components/schemas/')) {
    const name = ref.slice('#/components/schemas/'.length);
    const target = ((document.components as Json).schemas as Json)[name] as Json;
    return resolve(
      { ...target, ...Object.fromEntries(Object.entries(s).filter(([k]) => k !== '$ref')) },
      document,
    );
  }
  return s;
}

const words = [
  'emma',
  'dune',
  'pride-and-prejudice',
  'x',
  'Upper',
  'a b',
  'ünï',
  '%2F',
  '..',
  '-',
  '',
];

function text(r: Random, schema: Json): string {
  const p = schema.pattern !== undefined ? 0.85 : 0.5;
  if (Array.isArray(schema.examples) && schema.examples.length > 0 && r.chance(p)) {
    return String(r.pick(schema.examples as unknown[]));
  }
  if (schema.format === 'date-time') return new Date(r.int(0, 2e12)).toISOString();
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : 40;
  const word = r.pick(
    words.filter((w) => w.length <= max && w.length >= ((schema.minLength as number) ?? 0)),
  );
  return word ?? 'x';
}

/** A value of `schema`, valid most of the time; `depth` bounds nesting. */
export function drawValue(
  r: Random,
  raw: unknown,
  document: Json,
  known: Known,
  name = '',
  depth = 0,
): unknown {
  const schema = resolve(raw, document);
  const knownValues = known[name]?.() ?? [];
  if (knownValues.length > 0 && r.chance(0.7)) return r.pick(knownValues);
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return r.pick(schema.enum as unknown[]);
  if (Array.isArray(schema.allOf)) {
    return Object.assign(
      {},
      ...schema.allOf.map((s) => drawValue(r, s, document, known, name, depth + 1)),
    );
  }
  if (Array.isArray(schema.anyOf))
    return drawValue(r, r.pick(schema.anyOf as unknown[]), document, known, name, depth + 1);
  const type = Array.isArray(schema.type)
    ? r.pick(schema.type as string[])
    : (schema.type as string | undefined);
  switch (type) {
    case 'integer':
    case 'number': {
      const min = typeof schema.minimum === 'number' ? Math.max(schema.minimum, -1e6) : -10;
      const max = typeof schema.maximum === 'number' ? Math.min(schema.maximum, 1e6) : 1000;
      return r.int(Math.ceil(min), Math.floor(max));
    }
    case 'boolean':
      return r.chance(0.5);
    case 'null':
      return null;
    case 'array': {
      if (depth > 3) return [];
      const n = r.int(
        (schema.minItems as number) ?? 0,
        Math.min((schema.maxItems as number) ?? 3, 3),
      );
      return Array.from({ length: n }, () =>
        drawValue(r, schema.items, document, known, name, depth + 1),
      );
    }
    case 'object':
      return objectOf(r, schema, document, known, depth);
    case 'string':
      return text(r, schema);
    default:
      return schema.properties !== undefined
        ? objectOf(r, schema, document, known, depth)
        : text(r, schema);
  }
}

function objectOf(r: Random, schema: Json, document: Json, known: Known, depth: number): Json {
  if (Array.isArray(schema.examples) && schema.examples.length > 0 && r.chance(0.3)) {
    return structuredClone(r.pick(schema.examples as Json[]));
  }
  const out: Json = {};
  const required = new Set((schema.required ?? []) as string[]);
  for (const [key, member] of Object.entries((schema.properties ?? {}) as Json)) {
    if (required.has(key) || r.chance(0.5)) {
      out[key] = drawValue(r, member, document, known, key, depth + 1);
    }
  }
  return out;
}

/** A value broken the way clients break them. */
function broken(r: Random, value: unknown): unknown {
  switch (r.int(0, 4)) {
    case 0:
      return typeof value === 'number' ? 'many' : 12;
    case 1:
      return typeof value === 'number' ? -99999999 : '';
    case 2:
      return null;
    case 3:
      return 'x'.repeat(r.int(200, 600));
    default:
      return { nested: true };
  }
}

/** A body broken: a member missing or of the wrong type, one too many, not JSON at all. */
function brokenBody(r: Random, value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return broken(r, value);
  const out = { ...(value as Json) };
  const keys = Object.keys(out);
  switch (r.int(0, 2)) {
    case 0:
      if (keys.length > 0) delete out[r.pick(keys)];
      return out;
    case 1:
      if (keys.length > 0) out[r.pick(keys)] = broken(r, out[r.pick(keys)]);
      return out;
    default:
      out.unknownMember = 'x';
      return out;
  }
}

const accepts = [
  '*/*',
  'text/csv',
  'application/*',
  'application/xml;q=0.9, application/json;q=0.1',
  'text/html',
  'application/vnd.bookshelf+xml',
  'nonsense/',
];

/** One request for `operation`, drawn from its schemas. */
export function drawRequest(r: Random, operation: Operation, ctx: FuzzContext): Drawn {
  const { op, method } = operation;
  const { document, known } = ctx;
  const headers: Record<string, string> = {};
  let path = operation.path;
  const query = new URLSearchParams();
  for (const p of (op.parameters ?? []) as Json[]) {
    const name = p.name as string;
    const schema = p.schema as Json;
    if (p.in === 'path') {
      let value = String(drawValue(r, schema, document, known, name));
      if (r.chance(0.05)) value = value.toUpperCase();
      if (r.chance(0.003)) value = 'a'.repeat(9000);
      path = path.replace(`{${name}}`, encodeURIComponent(value));
    } else if (p.in === 'query' && (p.required === true || r.chance(0.25))) {
      const value = drawValue(r, schema, document, known, name);
      query.append(name, String(r.chance(0.2) ? broken(r, value) : value));
    } else if (p.in === 'header' && (p.required === true || r.chance(0.5))) {
      headers[name] = String(drawValue(r, schema, document, known, name));
    }
  }
  if (r.chance(0.05)) query.append('colour', 'red');
  if (r.chance(0.03)) query.append('page', '1');
  // Credentials as the operation's security asks, or not.
  const security = (op.security ?? []) as Json[];
  const schemes = new Set(security.flatMap((s) => Object.keys(s)));
  const roll = r.next();
  if (schemes.has('bearerAuth') || roll < 0.1) {
    const good = ctx.credentials.bearer();
    if (roll < 0.65 && good.length > 0) headers.authorization = r.pick(good);
    else if (roll < 0.75) headers.authorization = 'Bearer not.a.token';
    else if (roll < 0.8) headers.authorization = 'Bearer';
    else if (roll < 0.83) headers.authorization = 'Basic !!!';
  } else if (schemes.has('clientBasic')) {
    if (roll < 0.7) headers.authorization = r.pick(ctx.credentials.basic);
    else if (roll < 0.8)
      headers.authorization = `Basic ${Buffer.from('demo-client:wrong').toString('base64')}`;
    else if (roll < 0.85) headers.authorization = 'Basic !!!';
  }
  // What the client accepts: a type the operation answers in, or something else.
  const success = Object.entries((op.responses ?? {}) as Json).find(([s]) =>
    s.startsWith('2'),
  )?.[1] as Json | undefined;
  const types = Object.keys((resolve(success, document).content ?? {}) as Json);
  if (r.chance(0.6) && types.length > 0) headers.accept = r.pick(types);
  else if (r.chance(0.5)) headers.accept = r.pick(accepts);
  if (r.chance(0.05)) headers['if-none-match'] = r.pick(['"nope"', '*', 'W/"x"']);
  if (r.chance(0.05)) headers['if-match'] = r.pick(['"nope"', '*']);
  if (r.chance(0.004)) headers['x-padding'] = 'x'.repeat(70_000);
  // A body from the request body's schema, in a type it reads, or broken.
  let body: string | undefined;
  const requestBody = op.requestBody as Json | undefined;
  if (requestBody !== undefined) {
    const content = requestBody.content as Record<string, Json>;
    const type = r.pick(Object.keys(content));
    let value = drawValue(r, content[type]!.schema, document, known);
    if (r.chance(0.3)) value = brokenBody(r, value);
    const bad = r.next();
    if (bad < 0.05) {
      headers['content-type'] = 'text/plain';
      body = 'plain';
    } else if (bad < 0.1 && type === 'application/json') {
      headers['content-type'] = type;
      body = '{"title": ';
    } else if (bad < 0.12) {
      body = undefined;
    } else if (type === 'application/x-www-form-urlencoded') {
      headers['content-type'] = type;
      const form = new URLSearchParams();
      for (const [k, v] of Object.entries((value ?? {}) as Json))
        form.append(k, typeof v === 'string' ? v : JSON.stringify(v));
      body = form.toString();
    } else {
      headers['content-type'] = type;
      body = JSON.stringify(value);
    }
  }
  const search = query.toString();
  return {
    method,
    target: search === '' ? path : `${path}?${search}`,
    headers,
    ...(body !== undefined ? { body } : {}),
  };
}
