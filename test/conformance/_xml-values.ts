/**
 * An XML body read back into the values its schema describes (OpenAPI 3.1 §4.8.26, the XML
 * Object): the root element the schema names, each member the element of its name (or its
 * `xml.name`), a wrapped list's entries under it, scalars typed as the schema types them and
 * `nil="true"` as null. So an XML body is judged against its schema as a JSON body is, and a
 * wrong element name, a list that is not wrapped or an entry of another name is found.
 */
import { XMLParser } from 'fast-xml-parser';

type Json = Record<string, unknown>;

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  processEntities: true,
});

/** The problems of reading, and the value read. */
export interface XmlReading {
  value: unknown;
  problems: string[];
}

const typesOf = (schema: Json): string[] =>
  Array.isArray(schema.type)
    ? (schema.type as string[])
    : schema.type === undefined
      ? []
      : [schema.type as string];

/** The schema with references to `components.schemas` followed, and `allOf` members merged. */
function resolve(schema: Json, components: Json, depth = 0): Json {
  if (depth > 20) return {};
  const ref = schema.$ref;
  if (typeof ref === 'string' && ref.startsWith('#/components/schemas/')) {
    const target = (components[ref.slice('#/components/schemas/'.length)] ?? {}) as Json;
    const { $ref: _, ...rest } = schema;
    return resolve({ ...target, ...rest }, components, depth + 1);
  }
  return schema;
}

/** The members an object schema names, `allOf` members' included. */
function propertiesOf(schema: Json, components: Json): Record<string, Json> {
  const own = (schema.properties ?? {}) as Record<string, Json>;
  const all = (schema.allOf ?? []) as Json[];
  return Object.assign(
    {},
    ...all.map((s) => propertiesOf(resolve(s, components), components)),
    own,
  );
}

const isNil = (node: unknown) =>
  typeof node === 'object' && node !== null && (node as Json)['@_nil'] === 'true';

function scalar(text: string, schema: Json, at: string, problems: string[]): unknown {
  const types = typesOf(schema);
  if (types.includes('integer') || types.includes('number')) {
    const n = Number(text);
    if (text.trim() !== '' && Number.isFinite(n)) return n;
  }
  if (types.includes('boolean') && (text === 'true' || text === 'false')) return text === 'true';
  if (types.length > 0 && !types.includes('string') && schema.enum === undefined) {
    problems.push(`${at}: "${text.slice(0, 40)}" is no ${types.join(' or ')}`);
  }
  return text;
}

function read(
  node: unknown,
  schema: Json,
  components: Json,
  at: string,
  problems: string[],
): unknown {
  const s = resolve(schema, components);
  if (isNil(node)) return null;
  const types = typesOf(s);
  if (
    types.includes('array') ||
    (types.length === 0 && (s.xml as Json | undefined)?.wrapped === true)
  ) {
    const items = (s.items ?? {}) as Json;
    const name = ((resolve(items, components).xml as Json | undefined)?.name ?? 'item') as string;
    if (node === '' || node === undefined) return [];
    if (typeof node !== 'object' || node === null) {
      problems.push(`${at}: a list holds text`);
      return [];
    }
    const entries = Object.keys(node as Json).filter((k) => !k.startsWith('@_'));
    for (const key of entries)
      if (key !== name) problems.push(`${at}: an entry <${key}> where <${name}> was expected`);
    const raw = (node as Json)[name];
    const list = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
    return list.map((entry, i) => read(entry, items, components, `${at}[${i}]`, problems));
  }
  const properties = propertiesOf(s, components);
  const isObject =
    types.includes('object') || (types.length === 0 && Object.keys(properties).length > 0);
  if (isObject) {
    if (node === '') return {};
    if (typeof node !== 'object' || node === null) {
      problems.push(`${at}: text where elements were expected`);
      return node;
    }
    const out: Json = {};
    // A member's element is its name, or the name its schema's `xml` gives (a list's wrapper
    // keeps the member's name).
    const byElement = new Map<string, string>();
    for (const [key, member] of Object.entries(properties)) {
      const m = resolve(member, components);
      const named = (m.xml as Json | undefined)?.name;
      const list = typesOf(m).includes('array');
      byElement.set(!list && typeof named === 'string' ? named : key, key);
    }
    for (const [element, child] of Object.entries(node as Json)) {
      if (element.startsWith('@_') || element === '#text') continue;
      const key = byElement.get(element) ?? element;
      const member = properties[key];
      out[key] =
        member === undefined ? child : read(child, member, components, `${at}.${key}`, problems);
    }
    return out;
  }
  if (typeof node === 'object' && node !== null) {
    const text = (node as Json)['#text'];
    if (typeof text === 'string') return scalar(text, s, at, problems);
    return node;
  }
  return typeof node === 'string' ? scalar(node, s, at, problems) : node;
}

/**
 * Reads `text` as the XML form of `schema`: its root must be the element `schema.xml.name`
 * names. `components` are the document's `components.schemas`.
 */
export function readXml(text: string, schema: Json, components: Json): XmlReading {
  const problems: string[] = [];
  let parsed: Json;
  try {
    parsed = parser.parse(text) as Json;
  } catch (error) {
    return { value: undefined, problems: [`not XML: ${(error as Error).message}`] };
  }
  const s = resolve(schema, components);
  const root = (s.xml as Json | undefined)?.name;
  const elements = Object.keys(parsed).filter((k) => !k.startsWith('?'));
  if (typeof root !== 'string')
    return { value: undefined, problems: ['the schema names no root element'] };
  if (elements.length !== 1 || elements[0] !== root) {
    return {
      value: undefined,
      problems: [`the root is <${elements.join('>, <')}>, not <${root}>`],
    };
  }
  const value = read(parsed[root], s, components, root, problems);
  return { value, problems };
}
