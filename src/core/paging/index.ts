/** Paging parameters and list envelopes (spec 2.7, 2.8, 4.4). */
export {
  createPaging,
  type ListMeta,
  listOf,
  type PageOptions,
  type PageParams,
  type Paging,
  parsePageParams,
} from './page-params.ts';
