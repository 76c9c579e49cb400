/**
 * The document's named schemas (`components.schemas`): what a schema names of itself (its
 * `$defs`, which zod writes for a schema with an `id` in its metadata, valibot's `definitions`)
 * lifted into components, and names given to the shapes the library knows (a list's envelope and
 * its items, the error body), so generators make named types (OpenAPI 3.1 §4.8.7).
 */
import type { JsonSchema } from './json-schema.ts';

const componentRef = '#/components/schemas/';
// OpenAPI 3.1 §4.8.7.1: the names components may have.
const validName = /^[A-Za-z0-9._-]+$/;

/** A stable text of a schema, its keys sorted, to tell equal schemas apart from different ones. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value !== 'object' || value === null) return JSON.stringify(value) ?? 'null';
  const keys = Object.keys(value).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical((value as JsonSchema)[k])}`).join(',')}}`;
}

/** `value` with every `$ref` rewritten by `rename` (a JSON Schema's own references). */
function rewriteRefs(value: unknown, rename: (ref: string) => string | undefined): unknown {
  if (Array.isArray(value)) return value.map((v) => rewriteRefs(v, rename));
  if (typeof value !== 'object' || value === null) return value;
  const out: JsonSchema = {};
  for (const [key, v] of Object.entries(value)) {
    out[key] = key === '$ref' && typeof v === 'string' ? (rename(v) ?? v) : rewriteRefs(v, rename);
  }
  return out;
}

/**
 * The named schemas of one document: each name holds one schema; a second, different schema
 * asking for a taken name gets the next free one (`Book2`), so no schema is ever replaced.
 */
export class SchemaComponents {
  private readonly byName = new Map<string, JsonSchema>();
  private readonly texts = new Map<string, string>();

  /** A reference to the component `name`. */
  static ref(name: string): JsonSchema {
    return { $ref: `${componentRef}${name}` };
  }

  /** The name a component reference points to, or `undefined` for any other schema. */
  static nameOf(schema: unknown): string | undefined {
    const ref = (schema as JsonSchema | undefined)?.$ref;
    if (typeof ref !== 'string' || !ref.startsWith(componentRef)) return undefined;
    return ref.slice(componentRef.length);
  }

  /** Whether `name` holds a component. */
  has(name: string): boolean {
    return this.byName.has(name);
  }

  /** The component `name`, if there is one. */
  get(name: string): JsonSchema | undefined {
    return this.byName.get(name);
  }

  /** The schema with a component reference followed (once), for reading its members. */
  resolve(schema: JsonSchema): JsonSchema {
    const name = SchemaComponents.nameOf(schema);
    return (name === undefined ? undefined : this.byName.get(name)) ?? schema;
  }

  /**
   * Keeps `schema` under `wanted` (or the next free name when that holds a different schema) and
   * returns the name it is kept under.
   */
  add(wanted: string, schema: JsonSchema): string {
    const base = validName.test(wanted) ? wanted : wanted.replace(/[^A-Za-z0-9._-]/g, '_');
    const text = canonical(schema);
    for (let n = 1; ; n++) {
      const name = n === 1 ? base : `${base}${n}`;
      const held = this.texts.get(name);
      if (held === undefined) {
        this.byName.set(name, schema);
        this.texts.set(name, text);
        return name;
      }
      if (held === text) return name;
    }
  }

  /**
   * `schema` with the definitions it carries (`$defs`, draft-07 `definitions`) moved into
   * components and its references to them rewritten: a schema that names itself (zod's
   * `.meta({ id: 'Book' })`) becomes a reference to the component `Book`.
   */
  lift(schema: JsonSchema): JsonSchema {
    const defs = {
      ...((schema.definitions ?? {}) as Record<string, JsonSchema>),
      ...((schema.$defs ?? {}) as Record<string, JsonSchema>),
    };
    const { $defs: _a, definitions: _b, ...rest } = schema;
    const names = Object.keys(defs);
    if (names.length === 0) return schema;
    // A definition may name another: find each one's final name before any is kept.
    const final = new Map<string, string>();
    const local = (ref: string) => {
      const m = /^#\/(?:\$defs|definitions)\/(.+)$/.exec(ref);
      return m === null
        ? undefined
        : decodeURIComponent(m[1]!).replace(/~1/g, '/').replace(/~0/g, '~');
    };
    const rename = (ref: string) => {
      const name = local(ref);
      const to = name === undefined ? undefined : final.get(name);
      return to === undefined ? undefined : `${componentRef}${to}`;
    };
    for (const name of names) final.set(name, name);
    for (const name of names) {
      const wanted = final.get(name)!;
      const body = rewriteRefs(defs[name], rename) as JsonSchema;
      const held = this.byName.get(wanted);
      if (held !== undefined && canonical(held) !== canonical(body)) {
        let n = 2;
        while (this.byName.has(`${wanted}${n}`)) n++;
        final.set(name, `${wanted}${n}`);
      }
    }
    for (const name of names)
      this.add(final.get(name)!, rewriteRefs(defs[name], rename) as JsonSchema);
    return rewriteRefs(rest, rename) as JsonSchema;
  }

  /** The components, sorted by name: the document's `components.schemas`. */
  toJSON(): Record<string, JsonSchema> {
    return Object.fromEntries([...this.byName].sort(([a], [b]) => (a < b ? -1 : 1)));
  }
}
