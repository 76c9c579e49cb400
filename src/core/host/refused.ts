/**
 * The answers to requests a host refused before the library could read them (a parser error, a
 * timeout, `CONNECT`), from the service a host serves.
 */

import type { Step } from '../kernel/steps.ts';
import type { Refusal, RefusalResponse } from '../limits/index.ts';
import { type Conventions, serviceOf } from '../pipeline/conventions.ts';

/**
 * The answer to a request the host refused before the library could read it (an HTTP parser
 * error, a header timeout, `CONNECT`): the spec's error body with the always-on headers and
 * `Connection: close`, also as HTTP/1.1 text for a socket. Built once per kind, counted by no one.
 *
 * @category Host binding
 */
export function refusalResponse(api: Conventions, kind: Refusal): RefusalResponse {
  return serviceOf(api).refusalResponse(kind);
}

/**
 * {@link refusalResponse} for a request from `remoteAddress`, once the plugins that see every request
 * saw it: a rate limit counts it by that address, and past the limit the answer is its 429.
 * Never rejects.
 *
 * @category Host binding
 */
export function refusalResponseFor(
  api: Conventions,
  kind: Refusal,
  remoteAddress: string | undefined,
): Step<RefusalResponse> {
  return serviceOf(api).refusalResponseFor(kind, remoteAddress);
}
