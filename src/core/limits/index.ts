/** Request limits: the checks of a request's head and the answers hosts give before the library. */
export {
  type HostAnswer,
  type HostFailure,
  hostFailure,
  hostFailures,
  toHostAnswer,
} from './host-answers.ts';
export { checkRequestHead, missingHost, type RequestHead } from './request-head.ts';
