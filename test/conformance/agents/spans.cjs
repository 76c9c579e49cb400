// Every span that ends is printed as one line (`SPAN {...}`) for the test to read: its name, the
// instrumentation that made it, its kind, its `http.route` and the attributes the test checks.
// With `metricsOnSignal`, the metrics are printed (`METRIC {...}`, one line per instrument) each
// time the process gets SIGUSR2.
'use strict';
const shown = [
  'url.path',
  'http.response.status_code',
  'network.protocol.version',
  'network.peer.address',
  'network.peer.port',
  'api_conventions.auth.outcome',
];

exports.printer = {
  export(spans, done) {
    for (const span of spans) {
      const scope = span.instrumentationScope?.name ?? span.instrumentationLibrary?.name;
      const line = {
        name: span.name,
        scope,
        kind: span.kind,
        route: span.attributes['http.route'],
        attributes: Object.fromEntries(shown.map((name) => [name, span.attributes[name]])),
      };
      process.stdout.write(`SPAN ${JSON.stringify(line)}\n`);
    }
    done({ code: 0 });
  },
  shutdown: () => Promise.resolve(),
};

/** A metric reader for the SDK that prints every instrument's points on SIGUSR2. */
exports.metricsOnSignal = () => {
  const { MetricReader } = require('@opentelemetry/sdk-metrics');
  class PrintingReader extends MetricReader {
    async onForceFlush() {
      const { resourceMetrics } = await this.collect();
      for (const scope of resourceMetrics.scopeMetrics) {
        for (const metric of scope.metrics.filter((m) => m.descriptor.name.startsWith('http.'))) {
          const points = metric.dataPoints.map((point) => point.attributes);
          const line = { name: metric.descriptor.name, scope: scope.scope.name, points };
          process.stdout.write(`METRIC ${JSON.stringify(line)}\n`);
        }
      }
      process.stdout.write('METRICS END\n');
    }
    async onShutdown() {}
  }
  const reader = new PrintingReader();
  process.on('SIGUSR2', () => reader.forceFlush());
  return reader;
};
