/**
 * Middleware known never to answer a request: it reads the request (a body parser) or prepares it
 * and hands it on. A host needs no check point in front of it: the route it leads to has one.
 * Known by the names their packages give their functions, through wrappers, for every host.
 */
import { originalOf } from './marks.ts';

// body-parser's parsers (`express.json()` and its siblings).
const bodyParsers = new Set(['jsonParser', 'urlencodedParser', 'rawParser', 'textParser']);
// Express 4's own first layers: the query parser and the request's set-up.
const preparers = new Set(['query', 'expressInit']);

/**
 * Whether `handler` is one of body-parser's parsers (`express.json()`, `express.urlencoded()`,
 * `express.raw()`, `express.text()`), through wrappers.
 *
 * @category Host binding
 */
export function isBodyParser(handler: unknown): boolean {
  return bodyParsers.has(originalOf(handler).name);
}

/**
 * Whether `handler` is middleware known never to answer a request (a body parser, Express 4's own
 * first layers), through wrappers: a host puts no check point in front of it.
 *
 * @category Host binding
 */
export function passesThrough(handler: unknown): boolean {
  return isBodyParser(handler) || preparers.has(originalOf(handler).name);
}
