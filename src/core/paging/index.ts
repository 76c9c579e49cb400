/** Paging parameters, list requests in three styles, cursors and list envelopes (spec 2.7, 2.8, 4.4). */

export { createList } from './create-list.ts';
export type { CursorValue } from './cursor.ts';
export { type KeysetSqlOptions, keysetSql, type ListSql } from './keyset-sql.ts';
export { pageLinks } from './link-header.ts';
export type {
  FilterType,
  ItemField,
  ListOptions,
  ListSpec,
  PagingStyle,
} from './list-options.ts';
export { ListPage, ListQuery, readList } from './list-query.ts';
export {
  createPaging,
  type ListMeta,
  listOf,
  type PageOptions,
  type PageParams,
  type Paging,
  parsePageParams,
} from './page-params.ts';
export type { FilterValue, Position } from './parse-list.ts';
export type { SortField } from './sort-order.ts';
export type { UnknownParameterPolicy } from './unknown-parameters.ts';
