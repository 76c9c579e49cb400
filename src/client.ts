/**
 * `api-conventions/client`: a client of any service that follows the conventions, on `fetch`
 * alone (browsers, Node 20+, Bun, Deno, workers). It pages through lists, stays under rate
 * limits and waits out a 429, revalidates with ETags, writes with `If-Match`, refreshes OAuth
 * tokens, reads the error body and reports deprecations; typed from the service's own route
 * table, with no generator. The guide: [Client](../docs/client.md).
 *
 * @module api-conventions/client
 */
export * from './client/index.ts';
