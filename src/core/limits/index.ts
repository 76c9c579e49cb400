/** Request limits: the checks of a request's head and the answers hosts give before the library. */
// What this folder adds to RouteConfig by declaration merging: `encodings`.
import './route-config.ts';

export {
  checkTransferCoding,
  contentCodingsOf,
  decodeBody,
} from './body-coding.ts';
export {
  type Refusal,
  type RefusalResponse,
  refusalError,
  refusals,
  stampDate,
  toRefusalResponse,
} from './refusals.ts';
export { checkRequestHead, missingHost, type RequestHead } from './request-head.ts';
