/** The XML serializer (spec 1, 4.5): a documented mapping of objects, lists and the error body. */
import { XMLBuilder } from 'fast-xml-parser';
import type { Serializer } from '../kernel/plugin.ts';
import { isXmlName, singularOf } from './xml-names.ts';

/**
 * Options of the XML serializer, the `xml` option of {@link negotiation}.
 *
 * @category Negotiation
 */
export interface XmlOptions {
  /** The name of the root element around every body. @default 'response' */
  root?: string;
  /** Whether the body starts with `<?xml version="1.0" encoding="UTF-8"?>`. @default true */
  declaration?: boolean;
}

// XML 1.0 §2.2: characters a document may not hold, even escaped.
const invalidChars =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters XML forbids
  /[\0-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const maxDepth = 64;

const text = (value: string) => value.replace(invalidChars, '\ufffd');

function scalar(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
      return text(value);
    case 'number':
      return Number.isFinite(value) ? String(value) : undefined;
    case 'boolean':
    case 'bigint':
      return String(value);
    default:
      return undefined;
  }
}

const nil = () => ({ '@_nil': 'true' });

/** A value as fast-xml-parser's builder takes it; `undefined` leaves the member out. */
function toNode(value: unknown, depth: number): unknown {
  if (depth > maxDepth) throw new TypeError(`The body nests deeper than ${maxDepth} levels.`);
  if (value === null) return nil();
  if (typeof value !== 'object') {
    if (value === undefined || typeof value === 'function' || typeof value === 'symbol') {
      return undefined;
    }
    return scalar(value) ?? nil();
  }
  if (value instanceof Date) {
    return Number.isNaN(value.getTime()) ? nil() : value.toISOString();
  }
  const json = (value as { toJSON?: () => unknown }).toJSON;
  if (typeof json === 'function') return toNode(json.call(value), depth + 1);
  if (Array.isArray(value)) return listNode('item', value, depth);
  const node: Record<string, unknown> = {};
  const others: unknown[] = [];
  for (const key of Object.keys(value)) {
    const member = (value as Record<string, unknown>)[key];
    if (Array.isArray(member)) {
      const list = listNode(singularOf(key), member, depth);
      if (isXmlName(key)) node[key] = list;
      else others.push(named(key, list));
      continue;
    }
    const child = toNode(member, depth + 1);
    if (child === undefined) continue;
    if (isXmlName(key)) node[key] = child;
    else others.push(named(key, child));
  }
  if (others.length > 0) node.member = others;
  return node;
}

function listNode(entry: string, list: readonly unknown[], depth: number): unknown {
  if (list.length === 0) return '';
  const items = list.map((item) => toNode(item, depth + 2) ?? nil());
  return { [entry]: items };
}

/** A member whose key is no element name: `<member name="…">`. */
function named(key: string, child: unknown): unknown {
  const name = text(key);
  if (typeof child === 'object' && child !== null) return { '@_name': name, ...child };
  return { '@_name': name, '#text': child };
}

/**
 * Builds the XML serializer: the body under one root element, each member an element, a list
 * as its element holding one element per entry named by the singular of the list's name. The
 * whole mapping is in [Content negotiation](../../../docs/negotiation.md). The negotiation plugin
 * builds it from its `xml` option.
 */
export function createXmlSerializer(options: XmlOptions = {}): Serializer {
  const root = options.root ?? 'response';
  if (typeof root !== 'string' || !isXmlName(root)) {
    throw new TypeError(
      `The XML root must be an element name (letters, digits, "_", "." or "-", not starting with "xml"); got ${String(root)}.`,
    );
  }
  const head = options.declaration === false ? '' : '<?xml version="1.0" encoding="UTF-8"?>';
  const builder = new XMLBuilder({
    ignoreAttributes: false,
    attributeNamePrefix: '@_',
    suppressBooleanAttributes: false,
    maxNestedTags: maxDepth * 2 + 8,
  });
  return (value) => {
    let node = toNode(value, 0);
    if (node === undefined) node = nil();
    return head + (builder.build({ [root]: node }) as string);
  };
}
