/** Paging parameters and list envelopes (spec 2.7, 2.8, 4.4). */
export {
  type ListMeta,
  listOf,
  type PageOptions,
  type PageParams,
  parsePageParams,
} from './page-params.ts';
