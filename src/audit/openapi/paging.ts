/**
 * Paging in an OpenAPI document (spec 4.4, 2.8), for the auditor's static checks and the
 * Spectral ruleset alike: query parameters named as the spec names them, and a paged list's
 * schema with the flag that says whether a next page exists.
 */
import { isListMember, isPagingParameter, readPaging } from '../checks/paging.ts';
import type { Strength } from '../strength.ts';
import { flatten } from './generate.ts';
import type { OpenApiDocument } from './ref.ts';

/** A verdict on a list schema's paging: a problem with its strength, or what passed. */
type ListVerdict = { problem: string; strength: Strength } | { problem?: undefined; pass: string };

type Schema = { type?: unknown; properties?: Record<string, unknown> };

/**
 * The paging verdict of a 2xx response schema of a GET, undefined when it is no list object (one
 * array member beside paging members). `parameters` are the operation's query parameter names.
 */
export function listSchemaVerdict(
  doc: OpenApiDocument,
  raw: unknown,
  parameters: readonly string[],
): ListVerdict | undefined {
  const schema = flatten(doc, raw) as Schema | undefined;
  const properties = schema?.properties;
  if (!properties) return undefined;
  const flat = Object.fromEntries(
    Object.entries(properties).map(([name, p]) => [name, flatten(doc, p) as Schema | undefined]),
  );
  const lists = Object.keys(flat).filter((name) => flat[name]?.type === 'array');
  const others = Object.keys(flat).filter((name) => !lists.includes(name) && !isListMember(name));
  // A list object holds one list beside paging members; a resource holds other fields too.
  if (lists.length !== 1 || others.length > 0) return undefined;
  const says = readPaging(flat, (s) => {
    const inner = s?.properties;
    return inner
      ? Object.fromEntries(
          Object.entries(inner).map(([n, p]) => [n, flatten(doc, p) as Schema | undefined]),
        )
      : undefined;
  });
  const declared = parameters.filter(isPagingParameter).map((name) => `?${name}`);
  if (says.hasNext !== undefined) {
    return (says.hasNext as Schema | undefined)?.type === 'boolean'
      ? { pass: 'the list schema has a boolean hasNext' }
      : { problem: 'the list schema has a hasNext that is not a boolean', strength: 'pattern' };
  }
  if (says.otherFlag !== undefined) {
    return {
      problem: `the list schema says whether a next page exists by ${says.otherFlag}, not by a boolean hasNext`,
      strength: 'pattern',
    };
  }
  if (says.signs.length > 0 || declared.length > 0) {
    return {
      problem: `a paged list (${[...says.signs, ...declared].join(', ')}) whose schema has no flag telling whether a next page exists`,
      strength: 'required',
    };
  }
  return { pass: 'an unpaged list' };
}
