// Every span that ends is printed as one line (`SPAN {...}`) for the test to read: its name, the
// instrumentation that made it, its kind and its `http.route`.
'use strict';
exports.printer = {
  export(spans, done) {
    for (const span of spans) {
      const scope = span.instrumentationScope?.name ?? span.instrumentationLibrary?.name;
      const line = {
        name: span.name,
        scope,
        kind: span.kind,
        route: span.attributes['http.route'],
      };
      process.stdout.write(`SPAN ${JSON.stringify(line)}\n`);
    }
    done({ code: 0 });
  },
  shutdown: () => Promise.resolve(),
};
