/** The URL of a call: the route template filled with its parameters, then the query. */

/** A value a query parameter may take; arrays are sent comma-separated (`sort=-year,title`). */
export type QueryValue =
  | string
  | number
  | boolean
  | Date
  | null
  | undefined
  | readonly (string | number | boolean)[];

// `:name` (the route table's templates) and `{name}` (OpenAPI's).
const placeholder = /:([A-Za-z_][A-Za-z0-9_]*)|\{([^}/]+)\}/g;

/**
 * `template` with each `:name` (or `{name}`) replaced by its parameter, percent-encoded
 * (RFC 3986 §3.3); a missing parameter is a `TypeError`.
 */
export function expandPath(
  template: string,
  params: Readonly<Record<string, string | number>> | undefined,
): string {
  return template.replace(placeholder, (_, colon?: string, brace?: string) => {
    const name = (colon ?? brace) as string;
    const value = params?.[name];
    if (value === undefined || value === '') {
      throw new TypeError(`The path "${template}" needs params.${name}; got none.`);
    }
    return encodeURIComponent(String(value));
  });
}

/** One query value as text. */
function textOf(value: Exclude<QueryValue, null | undefined>): string {
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.join(',');
  return String(value);
}

/** Appends the query of a call to `url`: its parameters, then `fields` and `view` (spec 2.10). */
export function withQuery(
  url: string,
  query: Readonly<Record<string, QueryValue>> | undefined,
  fields: readonly string[] | string | undefined,
  view: string | undefined,
): string {
  const search = new URLSearchParams();
  if (query) {
    for (const [name, value] of Object.entries(query)) {
      if (value !== undefined && value !== null) search.append(name, textOf(value));
    }
  }
  if (fields !== undefined)
    search.set('fields', typeof fields === 'string' ? fields : fields.join(','));
  if (view !== undefined) search.set('view', view);
  const text = search.toString();
  return text === '' ? url : `${url}${url.includes('?') ? '&' : '?'}${text}`;
}
