/**
 * The HTTP server metrics of the semantic conventions: `http.server.request.duration` and
 * `http.server.active_requests`, made on the first request through the meter provider given (or
 * the global one).
 */
import {
  type Attributes,
  type Histogram,
  type MeterProvider,
  metrics,
  type ObservableResult,
} from '@opentelemetry/api';
import {
  ATTR_ERROR_TYPE,
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_HTTP_ROUTE,
  ATTR_URL_SCHEME,
  METRIC_HTTP_SERVER_ACTIVE_REQUESTS,
  METRIC_HTTP_SERVER_REQUEST_DURATION,
} from './names.ts';

// The HTTP semantic conventions' boundaries for http.server.request.duration, in seconds.
const durationBuckets = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];

/** The requests in flight by method, for one scheme, with the attributes they are reported by. */
type InFlight = Map<string, { count: number; attributes: Attributes }>;

/** The server metrics of one `telemetry()` plugin. */
export class ServerMetrics {
  private readonly meters: MeterProvider | undefined;
  private duration: Histogram | undefined;
  // Counted here and reported when the SDK collects (an observable up-down counter): a counter
  // added to twice per request would cost the SDK two attribute hashes per request.
  private readonly inFlight: readonly [InFlight, InFlight] = [new Map(), new Map()];

  constructor(meters: MeterProvider | undefined) {
    this.meters = meters;
  }

  /** A request arrived: it is in flight. */
  received(method: string, scheme: 'http' | 'https'): void {
    if (this.duration === undefined) this.instrumentsNow();
    this.count(method, scheme, 1);
  }

  /**
   * A request is done: out of flight, and its duration recorded, unless `seconds` is `undefined`
   * (the HTTP instrumentation whose span was adopted records it).
   */
  done(
    method: string,
    scheme: 'http' | 'https',
    status: number,
    route: string | undefined,
    seconds: number | undefined,
  ): void {
    this.count(method, scheme, -1);
    if (seconds === undefined) return;
    const duration = this.duration ?? this.instrumentsNow();
    const measured: Attributes = {
      [ATTR_HTTP_REQUEST_METHOD]: method,
      [ATTR_URL_SCHEME]: scheme,
      [ATTR_HTTP_RESPONSE_STATUS_CODE]: status,
    };
    if (route !== undefined) measured[ATTR_HTTP_ROUTE] = route;
    if (status >= 500) measured[ATTR_ERROR_TYPE] = String(status);
    duration.record(seconds, measured);
  }

  private instrumentsNow(): Histogram {
    const meter = (this.meters ?? metrics.getMeterProvider()).getMeter('api-conventions');
    const active = meter.createObservableUpDownCounter(METRIC_HTTP_SERVER_ACTIVE_REQUESTS, {
      unit: '{request}',
      description: 'Number of active HTTP server requests.',
    });
    active.addCallback((result: ObservableResult) => {
      for (const byMethod of this.inFlight) {
        for (const { count, attributes } of byMethod.values()) result.observe(count, attributes);
      }
    });
    this.duration = meter.createHistogram(METRIC_HTTP_SERVER_REQUEST_DURATION, {
      unit: 's',
      description: 'Duration of HTTP server requests.',
      advice: { explicitBucketBoundaries: durationBuckets },
    });
    return this.duration;
  }

  /** Counts a request in or out of flight. */
  private count(method: string, scheme: 'http' | 'https', by: 1 | -1): void {
    const byMethod = this.inFlight[scheme === 'https' ? 1 : 0];
    const entry = byMethod.get(method);
    if (entry !== undefined) entry.count += by;
    else {
      byMethod.set(method, {
        count: by,
        attributes: { [ATTR_HTTP_REQUEST_METHOD]: method, [ATTR_URL_SCHEME]: scheme },
      });
    }
  }
}
