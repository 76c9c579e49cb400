/** Observability: request ids and the logger of a request. */
export { type RequestIdsOptions, RequestIdsPlugin, requestIds } from './request-ids.ts';
