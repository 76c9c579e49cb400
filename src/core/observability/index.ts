/** Observability: request ids. */
export { type RequestIdsOptions, RequestIdsPlugin, requestIds } from './request-ids.ts';
