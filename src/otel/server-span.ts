/**
 * The SERVER span an HTTP instrumentation already started for the request
 * (`@opentelemetry/instrumentation-http`, in every `getNodeAutoInstrumentations()` set-up), which
 * `telemetry()` names by route instead of starting a second one.
 */
import { type Context, createContextKey, type Span } from '@opentelemetry/api';
import type { RequestContext } from 'api-conventions';

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

/** What an adopted request's metadata holds beside the instrumentation's fields. */
interface Adoption {
  /** The request, and how its route is read (when the instrumentation ends the span). */
  readonly request: RequestContext;
  readonly routeOf: (request: RequestContext) => string | undefined;
  /** What another instrumentation (Express's) set as the route. */
  assigned: string | undefined;
}

// One request adopts a span: a request the library serves inside another's context (an in-process
// call to `api.handle()`) starts its own. The mark is also where the route's accessor keeps its
// state, so that one accessor pair serves every request (a pair of closures per request cost
// about a microsecond more).
const adoption = Symbol('api-conventions.otel.adopted');
type Adopted = HttpMetadata & { [adoption]: Adoption };

const route: PropertyDescriptor & ThisType<Adopted> = {
  configurable: true,
  enumerable: true,
  get() {
    const state = this[adoption];
    return state.routeOf(state.request) ?? state.assigned;
  },
  set(assigned: string | undefined) {
    this[adoption].assigned = assigned;
  },
};

/**
 * The HTTP server span active in `active`, made to take its route from `routeOf(request)` (the
 * route that served the request, read when the instrumentation ends the span; what another instrumentation
 * set is kept for requests no route served); `undefined` when no such span is active or another
 * request adopted it.
 */
export function adoptActiveServerSpan(
  active: Context,
  request: RequestContext,
  routeOf: (request: RequestContext) => string | undefined,
): Span | undefined {
  const metadata = active.getValue(metadataKey) as (HttpMetadata & object) | undefined;
  if (typeof metadata !== 'object' || metadata === null) return undefined;
  if (metadata.type !== 'http' || metadata.span === undefined || adoption in metadata) {
    return undefined;
  }
  const state: Adoption = { request, routeOf, assigned: metadata.route };
  (metadata as Adopted)[adoption] = state;
  Object.defineProperty(metadata, 'route', route);
  return metadata.span;
}
