/**
 * The answers to requests a host refused before the library could read them (a parser error, a
 * timeout, `CONNECT`), from the service a host serves.
 */

import type { Step } from '../kernel/steps.ts';
import type { HostAnswer, HostFailure } from '../limits/index.ts';
import { type Conventions, serviceOf } from '../pipeline/conventions.ts';

/**
 * The answer to a request the host refused before the library could read it (an HTTP parser
 * error, a header timeout, `CONNECT`): the spec's error body with the always-on headers and
 * `Connection: close`, also as HTTP/1.1 text for a socket. Built once per kind, counted by no one.
 *
 * @category Host binding
 */
export function hostAnswer(api: Conventions, kind: HostFailure): HostAnswer {
  return serviceOf(api).hostAnswer(kind);
}

/**
 * {@link hostAnswer} for a request from `remoteAddress`, once the plugins that see every request
 * saw it: a rate limit counts it by that address, and past the limit the answer is its 429.
 * Never rejects.
 *
 * @category Host binding
 */
export function hostAnswerFor(
  api: Conventions,
  kind: HostFailure,
  remoteAddress: string | undefined,
): Step<HostAnswer> {
  return serviceOf(api).hostAnswerFor(kind, remoteAddress);
}
