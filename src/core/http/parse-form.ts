/** A form body (`application/x-www-form-urlencoded`) as an object of its fields, bounded as it is read. */

import {
  type StructureLimits,
  tooDeep,
  tooManyItems,
  tooManyMembers,
  tooManyValues,
} from './body-structure.ts';

/**
 * A form body as an object of its fields. A field sent more than once keeps every value, as an
 * array in the order sent (as Node's `querystring` and the Express and Fastify form parsers do),
 * so a reader can refuse a repeated parameter (RFC 6749 §3.2) instead of silently getting one.
 * The form is an object of depth 1 (a repeated field an array of depth 2) and its structure is
 * bounded as it is read: `maxValues` pairs, `maxMembers` names, `maxItems` values per name.
 */
// Cost: linear in the text (URLSearchParams), then one map look-up per pair, up to `maxValues`.
export function parseForm(
  text: string,
  limits: StructureLimits,
): Record<string, string | string[]> {
  const { maxDepth, maxItems, maxMembers, maxValues } = limits;
  const fields = new Map<string, string | string[]>();
  let pairs = 0;
  for (const [name, value] of new URLSearchParams(text)) {
    if (++pairs > maxValues) throw tooManyValues(maxValues, true);
    const seen = fields.get(name);
    if (seen === undefined) {
      if (fields.size >= maxMembers) throw tooManyMembers(maxMembers, true);
      fields.set(name, value);
    } else if (typeof seen === 'string') {
      if (maxDepth < 2) throw tooDeep(maxDepth);
      if (maxItems < 2) throw tooManyItems(maxItems, true);
      fields.set(name, [seen, value]);
    } else {
      if (seen.length >= maxItems) throw tooManyItems(maxItems, true);
      seen.push(value);
    }
  }
  // fromEntries defines own properties, so `__proto__` is a field, never the prototype.
  return Object.fromEntries(fields);
}
