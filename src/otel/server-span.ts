/**
 * The SERVER span an HTTP instrumentation already started for the request
 * (`@opentelemetry/instrumentation-http`, in every `getNodeAutoInstrumentations()` set-up), which
 * `telemetry()` names by route instead of starting a second one.
 */
import { type Context, createContextKey, type Span } from '@opentelemetry/api';

/**
 * Where the HTTP instrumentation keeps its span and the route it is named by: the context of the
 * request holds `{ type: 'http', span }`, and the framework instrumentations set its `route` (the
 * Express instrumentation does), which the HTTP instrumentation reads as it ends the span and
 * records `http.server.request.duration`. `createContextKey` makes a registered symbol, so this is
 * the key `@opentelemetry/core` uses, whichever copy of the API made it.
 */
const metadataKey = createContextKey('OpenTelemetry SDK Context Key RPC_METADATA');

/** The instrumentation's metadata of an incoming request (`@opentelemetry/core`'s `RPCMetadata`). */
interface HttpMetadata {
  type?: unknown;
  span?: Span;
  route?: string | undefined;
}

// One request adopts a span: a request the library serves inside another's context (an in-process
// call to `api.handle()`) starts its own.
const adopted = Symbol('api-conventions.otel.adopted');

/**
 * The HTTP server span active in `active`, made to take its route from `routeOf` (the route that
 * served the request, read when the instrumentation ends the span; what another instrumentation
 * set is kept for requests no route served); `undefined` when no such span is active or another
 * request adopted it.
 */
export function adoptActiveServerSpan(
  active: Context,
  routeOf: () => string | undefined,
): Span | undefined {
  const metadata = active.getValue(metadataKey) as (HttpMetadata & object) | undefined;
  if (typeof metadata !== 'object' || metadata === null) return undefined;
  if (metadata.type !== 'http' || metadata.span === undefined || adopted in metadata) {
    return undefined;
  }
  let assigned = metadata.route;
  Object.defineProperty(metadata, 'route', {
    configurable: true,
    enumerable: true,
    get: () => routeOf() ?? assigned,
    set: (route: string | undefined) => {
      assigned = route;
    },
  });
  Object.defineProperty(metadata, adopted, { value: true });
  return metadata.span;
}
