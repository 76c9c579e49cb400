/**
 * `telemetry()`: a SERVER span and the HTTP server metrics of every request, named by the route
 * that served it on every host, through the global OpenTelemetry API.
 */
import {
  type Attributes,
  type Context,
  context,
  type MeterProvider,
  propagation,
  type Span,
  SpanKind,
  SpanStatusCode,
  type TextMapGetter,
  type Tracer,
  type TracerProvider,
  trace,
} from '@opentelemetry/api';
import type {
  LogFields,
  Plugin,
  RequestContext,
  RouteSettings,
  SentResponse,
} from 'api-conventions';
import { decisionAttributes, methodOf, requestAttributes, spanName } from './attributes.ts';
import {
  ATTR_ERROR_TYPE,
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_HTTP_ROUTE,
  ATTR_URL_PATH,
  ATTR_URL_SCHEME,
} from './names.ts';
import { ServerMetrics } from './server-metrics.ts';
import { adoptActiveServerSpan } from './server-span.ts';

/** Options of {@link telemetry}. */
export interface TelemetryOptions {
  /** Where spans go. @default the global tracer provider (`trace.getTracerProvider()`) */
  tracerProvider?: TracerProvider | undefined;
  /**
   * Where the metrics go, looked up at the first request (the metrics API has no proxy: an SDK
   * registered after that is not seen). @default the global meter provider
   */
  meterProvider?: MeterProvider | undefined;
  /**
   * Whether the caller's subject (`ctx.identity.subject`) goes on the span as `user.id`: personal
   * data in your traces, so only when your policy allows it. @default false
   */
  recordSubject?: boolean | undefined;
  /**
   * The route name of requests no route served (404, 405, OPTIONS on a path): `http.route` and
   * the span name's route. Without it, as the semantic conventions say, such a span is named by
   * its method alone and has no `http.route`: one name either way, whatever the path.
   * @default undefined
   */
  unmatchedRoute?: string | undefined;
  /** Whether the duration histogram and the active-requests counter are recorded. @default true */
  metrics?: boolean | undefined;
  /**
   * When an HTTP instrumentation's SERVER span is already active for the request
   * (`@opentelemetry/instrumentation-http`, part of `getNodeAutoInstrumentations()`): name that
   * span by route and add the library's attributes to it instead of starting a second SERVER
   * span, and leave `http.server.request.duration` to the instrumentation, which then records it
   * with `http.route`. `false` starts the library's own span, a child of the instrumentation's,
   * and records a second duration histogram. @default true
   */
  adoptServerSpan?: boolean | undefined;
}

/** What the plugin keeps for one request, on its state. */
interface Watch {
  readonly span: Span;
  /** The context the span is current in, for the app's own spans (`contextOf`). */
  readonly parent: Context;
  readonly start: number;
  readonly method: string;
  /** Whether the span is an HTTP instrumentation's, which ends it and records its duration. */
  readonly adopted: boolean;
  /** The response the core sent, when it made it: its headers (an ETag, `RateLimit`). */
  sent: SentResponse | undefined;
}

const watched = Symbol.for('api-conventions.otel.watch');
type Carrier = Record<symbol, Watch | undefined>;
const watchOf = (ctx: RequestContext) => (ctx.state as Carrier)[watched];

// The request's headers as the propagators read them (`traceparent`, `tracestate`, `baggage`).
const getter: TextMapGetter<RequestContext['headers']> = {
  get: (headers, key) => headers.get(key) ?? undefined,
  keys: () => [],
};

const known = [
  'tracerProvider',
  'meterProvider',
  'recordSubject',
  'unmatchedRoute',
  'metrics',
  'adoptServerSpan',
];

/** A monotonic clock in milliseconds, on every runtime the core runs on. */
const now = () => performance.now();

/**
 * A SERVER span per request and the HTTP server metrics, named by the route that served the
 * request. Made by {@link telemetry}.
 *
 * @example
 * ```ts
 * import { conventions } from 'api-conventions';
 * import { type TelemetryPlugin, telemetry } from 'api-conventions/otel';
 *
 * // telemetry() makes it; an SDK registered before gets the spans and metrics.
 * const plugin: TelemetryPlugin = telemetry({ metrics: true, unmatchedRoute: 'unmatched' });
 * const api = conventions({ plugins: [plugin] });
 * ```
 */
export class TelemetryPlugin implements Plugin {
  readonly name = 'telemetry';
  private readonly tracer: Tracer;
  private readonly subject: boolean;
  /** The route name of a request (fixed at construction: no closure per request). */
  private readonly routeName: (ctx: RequestContext) => string | undefined;
  private readonly metrics: ServerMetrics | undefined;
  private readonly adopts: boolean;

  constructor(options: TelemetryOptions = {}) {
    if (typeof options !== 'object' || options === null) {
      throw new TypeError('telemetry(): options must be an object.');
    }
    for (const key of Object.keys(options)) {
      if (!known.includes(key)) {
        throw new TypeError(
          `telemetry(): unknown option \`${key}\`. Known options: ${known.join(', ')}.`,
        );
      }
    }
    const { unmatchedRoute } = options;
    if (unmatchedRoute !== undefined && (typeof unmatchedRoute !== 'string' || !unmatchedRoute)) {
      throw new TypeError('telemetry(): unmatchedRoute must be a non-empty string.');
    }
    for (const flag of ['recordSubject', 'metrics', 'adoptServerSpan'] as const) {
      if (options[flag] !== undefined && typeof options[flag] !== 'boolean') {
        throw new TypeError(`telemetry(): ${flag} must be true or false.`);
      }
    }
    this.tracer = (options.tracerProvider ?? trace.getTracerProvider()).getTracer(
      'api-conventions',
    );
    this.subject = options.recordSubject === true;
    this.routeName = (ctx) => routeOf(ctx.route, unmatchedRoute);
    this.metrics = options.metrics === false ? undefined : new ServerMetrics(options.meterProvider);
    this.adopts = options.adoptServerSpan !== false;
  }

  /**
   * As the request arrives: the HTTP instrumentation's span when one is active for it, or a span
   * of its own, a child of the caller's `traceparent` when it sent one.
   */
  onReceive(ctx: RequestContext): void {
    const method = methodOf(ctx.method);
    this.metrics?.received(method, ctx.scheme);
    const active = context.active();
    const outer = this.adopts ? adoptActiveServerSpan(active, ctx, this.routeName) : undefined;
    if (outer !== undefined) {
      const watch = {
        span: outer,
        parent: active,
        start: 0,
        method,
        adopted: true,
        sent: undefined,
      };
      (ctx.state as Carrier)[watched] = watch;
      return;
    }
    const parent = propagation.extract(active, ctx.headers, getter);
    // The attributes samplers may read are given at creation; the rest, to a recorded span only,
    // in one call once the request is answered.
    const span = this.tracer.startSpan(
      spanName(method, undefined),
      {
        kind: SpanKind.SERVER,
        attributes: {
          [ATTR_HTTP_REQUEST_METHOD]: method,
          [ATTR_URL_PATH]: ctx.path,
          [ATTR_URL_SCHEME]: ctx.scheme,
        },
      },
      parent,
    );
    const watch = { span, parent, start: now(), method, adopted: false, sent: undefined };
    (ctx.state as Carrier)[watched] = watch;
  }

  /** The response the core made, read when the request ends (an ETag, the rate limit). */
  onSend(ctx: RequestContext, sent: SentResponse): void {
    const watch = watchOf(ctx);
    if (watch !== undefined) watch.sent = sent;
  }

  /**
   * Once the response is done: the span named by its route and ended (an adopted span is ended by
   * its instrumentation), the metrics recorded.
   */
  onResponse(ctx: RequestContext, status: number): void {
    const watch = watchOf(ctx);
    if (watch === undefined) return;
    (ctx.state as Carrier)[watched] = undefined;
    const { span, method, adopted } = watch;
    const route = this.routeName(ctx);
    const failed = status >= 500;
    if (span.isRecording()) {
      // An adopted span keeps the instrumentation's name when no route served the request.
      if (route !== undefined || !adopted) span.updateName(spanName(method, route));
      const attributes: Attributes = { [ATTR_HTTP_RESPONSE_STATUS_CODE]: status };
      if (route !== undefined) attributes[ATTR_HTTP_ROUTE] = route;
      // The conventions' value when nothing more precise is known: the status code.
      if (failed) attributes[ATTR_ERROR_TYPE] = String(status);
      requestAttributes(ctx, method, attributes);
      const headers =
        watch.sent?.headers.record ??
        (ctx.hasResponseHeaders ? ctx.responseHeaders.record : undefined);
      decisionAttributes(ctx, status, headers, this.subject, attributes);
      span.setAttributes(attributes);
      // Only a server error is the server's failure; a 4xx is the client's (HTTP conventions).
      if (failed) span.setStatus({ code: SpanStatusCode.ERROR });
    }
    if (!adopted) span.end();
    this.metrics?.done(
      method,
      ctx.scheme,
      status,
      route,
      adopted ? undefined : (now() - watch.start) / 1000,
    );
  }

  /** The trace on every line the request logs (the names pino's OpenTelemetry instrumentation uses). */
  logFields(ctx: RequestContext): LogFields | undefined {
    const watch = watchOf(ctx);
    const spanContext = watch?.span.spanContext();
    if (spanContext === undefined || !trace.isSpanContextValid(spanContext)) return undefined;
    return {
      trace_id: spanContext.traceId,
      span_id: spanContext.spanId,
      trace_flags: `0${spanContext.traceFlags.toString(16)}`,
    };
  }
}

/** The route name of a request: the pattern of the route that served it, or the unmatched name. */
function routeOf(route: RouteSettings | undefined, unmatched: string | undefined) {
  return route === undefined ? unmatched : route.pattern;
}

/**
 * The span of a request, while `telemetry()` watches it (until its response is done), or
 * `undefined`: to add attributes or events of your own.
 *
 * @example
 * ```ts
 * import { conventions, type RequestContext } from 'api-conventions';
 * import { spanOf, telemetry } from 'api-conventions/otel';
 *
 * const getBook = (ctx: RequestContext) => {
 *   spanOf(ctx)?.setAttribute('book.id', ctx.param('id'));
 *   return { id: ctx.param('id'), title: 'Emma' };
 * };
 * const api = conventions({ routes: { '/v1/books/:id': { GET: getBook } }, plugins: [telemetry()] });
 * ```
 */
export function spanOf(ctx: RequestContext): Span | undefined {
  return watchOf(ctx)?.span;
}

/**
 * The OpenTelemetry context in which the request's span is the current span, for the spans your
 * handler makes: `context.with(contextOf(ctx), () => db.query(…))`. The active context when no
 * span watches the request.
 *
 * @example
 * ```ts
 * import { context, trace } from '@opentelemetry/api';
 * import { conventions, type RequestContext } from 'api-conventions';
 * import { contextOf, telemetry } from 'api-conventions/otel';
 *
 * const tracer = trace.getTracer('bookshelf');
 * const listBooks = (ctx: RequestContext) =>
 *   // The query's span is a child of the request's.
 *   context.with(contextOf(ctx), () =>
 *     tracer.startActiveSpan('books.query', (span) => {
 *       span.end();
 *       return { books: [], hasNext: false };
 *     }),
 *   );
 * const api = conventions({ routes: { '/v1/books': { GET: listBooks } }, plugins: [telemetry()] });
 * ```
 */
export function contextOf(ctx: RequestContext): Context {
  const watch = watchOf(ctx);
  return watch === undefined ? context.active() : trace.setSpan(watch.parent, watch.span);
}

/**
 * OpenTelemetry for the conventions: a SERVER span per request and the HTTP server metrics
 * (`http.server.request.duration`, `http.server.active_requests`), named by the route that served
 * the request (`GET /v1/books/:id`) on every host, through the global `@opentelemetry/api`. An
 * incoming `traceparent` is continued; the library's decisions (authentication, the rate limit,
 * caching, negotiation, version, deprecation) are attributes. Beside
 * `getNodeAutoInstrumentations()` the HTTP instrumentation's SERVER span is the request's span:
 * the library names it by route and adds its attributes (see `adoptServerSpan`).
 *
 * @example
 * ```ts
 * import { conventions } from 'api-conventions';
 * import { telemetry } from 'api-conventions/otel';
 *
 * const api = conventions({ routes: {}, requestIds: true, plugins: [telemetry()] });
 * ```
 *
 * @see [Observability](../../docs/observability.md): spans, metrics, request ids and logs.
 */
export function telemetry(options?: TelemetryOptions): TelemetryPlugin {
  return new TelemetryPlugin(options);
}
