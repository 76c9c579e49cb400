/**
 * What the bench measures: every target (one server file, one way of asking), and the
 * comparisons the report makes between them, grouped by question.
 *
 * A target is a file of bench/servers/ started with `PAYLOAD` and `BENCH_*` variables, asked
 * `GET request.path` with the headers its `request` names: a bearer token repeated by every
 * request (`auth: 'repeat'`, what real clients do) or a fresh one each time (`auth: 'fresh'`), an
 * `Origin` (CORS), an `If-None-Match` with the ETag the server gave (a 304 run). "ours" targets
 * switch each feature on when its export exists in the built package; the ready line says which.
 */

/** The four frameworks the adapter pairs cover; `hono` is our fetch adapter inside Hono. */
const STACKS = [
  { stack: 'node', requires: ['dist/node.mjs'] },
  { stack: 'express', requires: ['dist/express.mjs'] },
  { stack: 'fastify', requires: ['dist/fastify.mjs'] },
  { stack: 'hono', requires: ['dist/fetch.mjs'] },
];

/** The adapter alone on each framework, beside the framework alone (payload goals of pipeline v2). */
const ADAPTER_GOALS = { books: 0.9, dates: 0.8 };

const targets = {};
const comparisons = [];

const add = (name, spec) => {
  targets[name] = { name, payload: 'dates', requires: [], request: {}, expect: 'list', ...spec };
};

for (const [payload, atLeast] of Object.entries(ADAPTER_GOALS)) {
  for (const { stack, requires } of STACKS) {
    const pair = payload === 'books' ? stack : `${stack}-${payload}`;
    add(`${pair}-bare`, { server: `${stack}-bare.mjs`, payload, expect: 'payload' });
    add(`${pair}-ours`, { server: `${stack}-ours.mjs`, payload, requires, expect: 'payload' });
    comparisons.push({
      name: pair,
      group: 'adapters',
      a: `${pair}-ours`,
      b: `${pair}-bare`,
      atLeast,
      says: `our ${stack} adapter / ${stack} alone (${payload})`,
    });
  }
}

/** The same request on every full stack: a bearer token and an Origin, as a browser app sends. */
const asApp = { auth: 'repeat', origin: true };

for (const { stack, requires } of STACKS) {
  add(`${stack}-full`, { server: `${stack}-full.mjs`, requires, request: asApp, full: true });
  add(`${stack}-peer`, { server: `${stack}-peer.mjs`, request: asApp, peer: true });
  add(`${stack}-full-fresh`, {
    server: `${stack}-full.mjs`,
    requires,
    request: { ...asApp, auth: 'fresh' },
    full: true,
  });
  add(`${stack}-peer-fresh`, {
    server: `${stack}-peer.mjs`,
    request: { ...asApp, auth: 'fresh' },
    peer: true,
  });
  add(`${stack}-full-304`, {
    server: `${stack}-full.mjs`,
    requires,
    request: { ...asApp, revalidate: true },
    full: true,
  });
}

// The ceiling every stack is set against: node:http serializing the same page, nothing else.
const CEILING = 'node-dates-bare';

comparisons.push({
  name: 'node-full',
  group: 'full',
  a: 'node-full',
  b: CEILING,
  atLeast: 0.7,
  says: 'our full stack on node:http / bare node:http',
});
for (const { stack } of STACKS) {
  comparisons.push({
    name: `${stack}-vs-peer`,
    group: 'full',
    a: `${stack}-full`,
    b: `${stack}-peer`,
    atLeast: 2,
    says: `our full stack on ${stack} / the ${stack} stack users assemble`,
  });
}
for (const { stack } of STACKS) {
  for (const side of ['full', 'peer']) {
    comparisons.push({
      name: `${stack}-${side}-fresh`,
      group: 'tokens',
      a: `${stack}-${side}-fresh`,
      b: `${stack}-${side}`,
      says: `${stack} ${side === 'full' ? 'ours' : 'peer'}: a fresh token per request / one repeated token`,
    });
  }
}
for (const { stack } of STACKS) {
  comparisons.push({
    name: `${stack}-304`,
    group: 'revalidation',
    a: `${stack}-full-304`,
    b: `${stack}-full`,
    atLeast: 1,
    says: `our ${stack} stack: 304 revalidation / the 200 it replaces`,
  });
}

/**
 * The bookshelf's own TypeScript runs through tsx, with `api-conventions` resolved to the built
 * package (bench/tsconfig.dist.json), as in a service that depends on the published package.
 */
const builtPackage = { TSX_TSCONFIG_PATH: 'bench/tsconfig.dist.json' };

/**
 * Seconds of warm-up at least, for every bookshelf target and the bare servers set against it
 * (both sides of a comparison warm up alike): the bookshelf reaches its steady speed later than
 * the small servers (see `warmupOf` in bench/run.mjs).
 */
const bookshelfWarmup = 10;

add('bookshelf', {
  server: 'bookshelf.mjs',
  requires: ['dist/node.mjs'],
  tsx: true,
  env: builtPackage,
  request: { auth: 'bookshelf', origin: true },
  full: true,
  warmup: bookshelfWarmup,
});
add('bookshelf-bare', {
  server: 'bookshelf-bare.mjs',
  tsx: true,
  env: builtPackage,
  warmup: bookshelfWarmup,
});
comparisons.push({
  name: 'bookshelf',
  group: 'bookshelf',
  a: 'bookshelf',
  b: 'bookshelf-bare',
  atLeast: 0.7,
  says: 'the bookshelf (GET /v1/books, every convention on) / node:http serializing its data',
});

// The bookshelf on each host beside that host's framework sending the very bytes the bookshelf
// sends, built by JSON.stringify from plain strings on every request: the ceiling
// each host can reach: 0.7 of it on node:http and Fastify, 0.65 on Express and the fetch host
// (Hono on @hono/node-server).
const BYTES_GOALS = { node: 0.7, fastify: 0.7, express: 0.65, fetch: 0.65 };
const perPage = '/v1/books?per_page=20';
/**
 * The bytes server on `stack`; `head` is its `BENCH_HEAD` (node:http only), none by default;
 * `text` its `BENCH_TEXT` (`fixed`: the text taken once), written anew by default.
 */
const bytesServer = (stack, head, text) => ({
  server: 'bookshelf-bytes.mjs',
  requires: ['dist/node.mjs'],
  tsx: true,
  env: {
    ...builtPackage,
    BENCH_HOST: stack,
    ...(head === undefined ? {} : { BENCH_HEAD: head }),
    ...(text === undefined ? {} : { BENCH_TEXT: text }),
  },
  request: { path: perPage },
  warmup: bookshelfWarmup,
});
for (const [stack, atLeast] of Object.entries(BYTES_GOALS)) {
  add(`bookshelf-${stack}`, {
    server: 'bookshelf.mjs',
    requires: ['dist/node.mjs', `dist/${stack}.mjs`],
    tsx: true,
    env: { ...builtPackage, BENCH_HOST: stack },
    request: { auth: 'bookshelf', origin: true, path: perPage },
    full: true,
    warmup: bookshelfWarmup,
  });
  add(`bookshelf-bytes-${stack}`, bytesServer(stack));
  comparisons.push({
    name: `bookshelf-bytes-${stack}`,
    group: 'bookshelf-bytes',
    a: `bookshelf-${stack}`,
    b: `bookshelf-bytes-${stack}`,
    ...(atLeast === undefined ? {} : { atLeast }),
    says: `the bookshelf on ${stack} (GET ${perPage}) / ${stack} sending the same bytes`,
  });
}

// The bookshelf writing every page anew (its kept text never sent again) beside the same twins:
// reported, to show what the conventions cost where a read's data are new each time.
for (const stack of ['node', 'fastify']) {
  add(`bookshelf-written-${stack}`, {
    server: 'bookshelf.mjs',
    requires: ['dist/node.mjs', `dist/${stack}.mjs`],
    tsx: true,
    env: { ...builtPackage, BENCH_HOST: stack, BENCH_REUSE: '0' },
    request: { auth: 'bookshelf', origin: true, path: perPage },
    full: true,
    warmup: bookshelfWarmup,
  });
  comparisons.push({
    name: `bookshelf-written-${stack}`,
    group: 'bookshelf-bytes',
    a: `bookshelf-written-${stack}`,
    b: `bookshelf-bytes-${stack}`,
    says: `the bookshelf on ${stack} writing each page anew / ${stack} sending the same bytes`,
  });
  // The strictest ceiling: the twin sends the text it took at start-up, writing nothing.
  add(`bookshelf-fixed-${stack}`, bytesServer(stack, undefined, 'fixed'));
  comparisons.push({
    name: `bookshelf-fixed-${stack}`,
    group: 'bookshelf-bytes',
    a: `bookshelf-${stack}`,
    b: `bookshelf-fixed-${stack}`,
    says: `the bookshelf on ${stack} / ${stack} sending the same bytes from a string taken once`,
  });
}

// node:http sending the bookshelf's head as well as its bytes (its own response headers, taken
// once): reported, to show how much of the gap above is Node writing a longer head.
add('bookshelf-head-node', bytesServer('node', '1'));
comparisons.push({
  name: 'bookshelf-head-node',
  group: 'bookshelf-bytes',
  a: 'bookshelf-node',
  b: 'bookshelf-head-node',
  says: `the bookshelf on node (GET ${perPage}) / node sending the same head and bytes`,
});
comparisons.push({
  name: 'bookshelf-head-cost',
  group: 'bookshelf-bytes',
  a: 'bookshelf-head-node',
  b: 'bookshelf-bytes-node',
  says: 'node sending the bookshelf head and bytes / node sending the bytes with a minimal head',
});

// The same head length in bytes as one long line beside Content-Type: whether the head costs by
// its bytes or by its lines (Node checks and writes each line on its own).
add('bookshelf-line-node', bytesServer('node', 'line'));
comparisons.push({
  name: 'bookshelf-head-lines',
  group: 'bookshelf-bytes',
  a: 'bookshelf-head-node',
  b: 'bookshelf-line-node',
  says: 'node sending the bookshelf head / node sending as many head bytes in two lines',
});
comparisons.push({
  name: 'bookshelf-head-bytes',
  group: 'bookshelf-bytes',
  a: 'bookshelf-line-node',
  b: 'bookshelf-bytes-node',
  says: 'node sending the bookshelf head bytes in two lines / node sending a minimal head',
});

add('node-full-redis', {
  server: 'node-full.mjs',
  requires: ['dist/node.mjs', 'dist/redis.mjs'],
  request: asApp,
  redis: true,
  full: true,
});
comparisons.push({
  name: 'redis',
  group: 'redis',
  a: 'node-full-redis',
  b: CEILING,
  atLeast: 0.5,
  says: 'our full node stack on a local Redis / bare node:http',
});
comparisons.push({
  name: 'redis-vs-memory',
  group: 'redis',
  a: 'node-full-redis',
  b: 'node-full',
  says: 'our full node stack: Redis store / memory store',
});

// Telemetry: our full stack with telemetry() on the OpenTelemetry API alone (its
// no-op, goal: at most 3 % slower), with a real SDK exporting to memory (at most 15 % slower),
// and with request ids alone, each beside the same stack without, in one run. Then the usual
// production set-up: OpenTelemetry's own HTTP instrumentation on the same SDK, without telemetry()
// (what instrumenting the service costs whoever does it), and telemetry() beside it, adopting its
// span (what the library adds to that).
const TELEMETRY = {
  'otel-noop': {
    env: { BENCH_OTEL: 'noop' },
    atLeast: 0.97,
    says: 'telemetry, no SDK (no-op API) / without',
  },
  'otel-sdk': {
    env: { BENCH_OTEL: 'sdk' },
    atLeast: 0.85,
    says: 'telemetry, SDK to memory / without',
  },
  ids: { env: { BENCH_IDS: '1' }, says: 'request ids / without' },
  'otel-floor': {
    env: { BENCH_OTEL: 'floor' },
    says: "the SDK calls any instrumentation makes, in a plugin of the bench's, no telemetry() / without",
  },
  // Two targets measured anyway: the SDK stack over the floor.
  'otel-sdk-floor': {
    of: 'otel-sdk',
    than: 'otel-floor',
    says: 'telemetry, SDK / its calls alone',
  },
  'otel-http': {
    env: { BENCH_OTEL: 'http' },
    says: "OpenTelemetry's HTTP instrumentation on that SDK, no telemetry() / without",
  },
  'otel-http-ours': {
    env: { BENCH_OTEL: 'http-ours' },
    than: 'otel-http',
    says: "telemetry() adopting the HTTP instrumentation's span / the instrumentation alone",
  },
};
for (const stack of ['node', 'fastify']) {
  const { requires } = STACKS.find((s) => s.stack === stack);
  for (const [variant, { env, atLeast, of, than, says }] of Object.entries(TELEMETRY)) {
    const target = `${stack}-full-${of ?? variant}`;
    if (of === undefined) {
      add(target, {
        server: `${stack}-full.mjs`,
        requires: variant === 'ids' ? requires : [...requires, 'dist/otel.mjs'],
        env,
        request: asApp,
        full: true,
      });
    }
    comparisons.push({
      name: `${stack}-${variant}`,
      group: 'telemetry',
      a: target,
      b: than === undefined ? `${stack}-full` : `${stack}-full-${than}`,
      ...(atLeast === undefined ? {} : { atLeast }),
      says: `our full ${stack} stack: ${says}`,
    });
  }
}

/** Every target by name. */
export const TARGETS = targets;

/** Every comparison, in report order. */
export const COMPARISONS = comparisons;

/** The groups, in report order: `--only` takes a group, a comparison or a target name. */
export const GROUPS = [...new Set(comparisons.map((c) => c.group))];

/** The baseline of the chart: each stack's share of it. */
export const CHART_BASE = CEILING;

/** The targets the chart shows, in its order: each of ours beside the peer on its framework. */
export const CHART_TARGETS = [
  'node-full',
  'node-peer',
  'express-full',
  'express-peer',
  'fastify-full',
  'fastify-peer',
  'hono-full',
  'hono-peer',
  'node-full-redis',
];

/**
 * What `--only` names: groups, comparisons, or single targets. Returns the comparisons to
 * report and every target they need (a target named alone is measured and listed without a
 * comparison).
 */
export function select(names) {
  if (names.length === 0) {
    return { comparisons: COMPARISONS, targets: Object.keys(TARGETS) };
  }
  const chosen = new Set();
  const alone = new Set();
  for (const name of names) {
    const inGroup = COMPARISONS.filter((c) => c.group === name || c.name === name);
    if (inGroup.length > 0) for (const c of inGroup) chosen.add(c);
    else if (Object.hasOwn(TARGETS, name)) alone.add(name);
    else {
      throw new Error(
        `--only: unknown name "${name}" (groups: ${GROUPS.join(', ')}; comparisons and targets are listed by --list)`,
      );
    }
  }
  const list = COMPARISONS.filter((c) => chosen.has(c));
  const needed = new Set([...alone, ...list.flatMap((c) => [c.a, c.b])]);
  return { comparisons: list, targets: Object.keys(TARGETS).filter((t) => needed.has(t)) };
}
