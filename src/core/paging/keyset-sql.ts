/** The SQL pieces of a list request: filters, search, order, and offset or keyset paging (spec 4.4). */
import type { ListQuery } from './list-query.ts';

/**
 * Options of {@link keysetSql}.
 *
 * @category Payloads
 */
export interface KeysetSqlOptions {
  /** The SQL expression of each field, where it differs from the quoted field name (`"createdAt"`). @default {} */
  columns?: Readonly<Record<string, string>>;
  /**
   * The table, needed only when `after` or `before` is a plain identifier under a sort other
   * than the key: the sort values are then read from the row it names.
   */
  table?: string;
  /** The number of the first placeholder (`$1`). @default 1 */
  firstParameter?: number;
}

/**
 * The SQL of one list request, for a Postgres-style driver (`pg`, PGlite).
 *
 * @category Payloads
 */
export interface ListSql {
  /** The `WHERE` condition (filters, search, keyset position), or `'TRUE'`. */
  where: string;
  /** The `ORDER BY` list, reversed for `before` (the rows then come in reverse: pass them to `pageOf` as they are). */
  orderBy: string;
  /** `limit + 1`: the extra row tells whether a next page exists, without counting. */
  limit: number;
  /** The rows to skip: 0 in the cursor style. */
  offset: number;
  /** The values of the placeholders, in order. */
  params: unknown[];
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * Turns a list request into SQL: exact filters, `q` as `ILIKE` over the search fields, the
 * order (the key last), and either `OFFSET` or the keyset condition `(sortKey, id) > ($1, $2)`
 * that keeps each page where the last one ended however rows are inserted meanwhile. Values
 * always travel as placeholders; field names come from the route's declaration, never the request.
 *
 * @example
 * ```ts
 * import { conventions, keysetSql, listQuery, payloads, type RequestContext } from 'api-conventions';
 * import pg from 'pg';
 *
 * const pool = new pg.Pool(); // PGHOST, PGDATABASE… from the environment
 * const listBooks = async (ctx: RequestContext) => {
 *   const sql = keysetSql(listQuery(ctx), { table: 'books' });
 *   const { rows } = await pool.query(
 *     `SELECT * FROM books WHERE ${sql.where} ORDER BY ${sql.orderBy} LIMIT ${sql.limit} OFFSET ${sql.offset}`,
 *     sql.params,
 *   );
 *   return listQuery(ctx).pageOf(rows);
 * };
 * const api = conventions({
 *   plugins: [payloads()],
 *   routes: {
 *     '/v1/books': { GET: { handler: listBooks, config: { list: { name: 'books', sort: ['year'] } } } },
 *   },
 * });
 * ```
 *
 * @category Payloads
 */
export function keysetSql(query: ListQuery, options: KeysetSqlOptions = {}): ListSql {
  const columns = options.columns ?? {};
  const column = (field: string) => columns[field] ?? quote(field);
  const params: unknown[] = [];
  const next = (value: unknown) => {
    params.push(value);
    return `$${params.length - 1 + (options.firstParameter ?? 1)}`;
  };
  const where: string[] = [];
  for (const [field, value] of Object.entries(query.filters))
    where.push(`${column(field)} = ${next(value)}`);
  if (query.search !== undefined && query.spec.search.length > 0) {
    const pattern = next(`%${query.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    where.push(`(${query.spec.search.map((f) => `${column(f)} ILIKE ${pattern}`).join(' OR ')})`);
  }
  const position = query.after ?? query.before;
  const backwards = query.before !== undefined;
  if (position !== undefined) {
    let values: string[];
    if (position.values !== undefined) values = position.values.map(next);
    else {
      const id = next(position.id);
      const { key } = query.spec;
      if (query.sort.length > 1 && options.table === undefined) {
        throw new TypeError(
          'keysetSql needs `table` to page after a plain identifier under a sort other than the key.',
        );
      }
      values = query.sort.map((s) =>
        s.field === key
          ? id
          : `(SELECT ${column(s.field)} FROM ${options.table} WHERE ${column(key)} = ${id})`,
      );
    }
    where.push(keysetCondition(query, values, backwards, column));
  }
  const orderBy = query.sort
    .map((s) => `${column(s.field)} ${s.descending !== backwards ? 'DESC' : 'ASC'}`)
    .join(', ');
  return {
    where: where.length > 0 ? where.join(' AND ') : 'TRUE',
    orderBy,
    limit: query.limit + 1,
    offset: query.style === 'cursor' ? 0 : query.offset,
    params,
  };
}

/** Rows strictly past the position in the walking direction: one row comparison when all fields share a direction. */
function keysetCondition(
  query: ListQuery,
  values: readonly string[],
  backwards: boolean,
  column: (field: string) => string,
): string {
  const { sort } = query;
  const greater = (descending: boolean) => (descending !== backwards ? '<' : '>');
  if (sort.every((s) => s.descending === sort[0]!.descending)) {
    return `(${sort.map((s) => column(s.field)).join(', ')}) ${greater(sort[0]!.descending)} (${values.join(', ')})`;
  }
  // Mixed directions: (a > x) OR (a = x AND b < y) OR ...
  const terms = sort.map((s, i) => {
    const equal = sort.slice(0, i).map((p, j) => `${column(p.field)} = ${values[j]}`);
    return `(${[...equal, `${column(s.field)} ${greater(s.descending)} ${values[i]}`].join(' AND ')})`;
  });
  return `(${terms.join(' OR ')})`;
}
