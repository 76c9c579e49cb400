/**
 * A test plugin that uses every seam of the pipeline (pre-routing answer, identity, a contributed
 * route, a transform, a serializer, a send-phase header, a store, always-on headers), and the
 * small API it runs on, for the plugin-seams conformance suite.
 */
import {
  ApiError,
  type Conventions,
  conventions,
  ErrorCode,
  MemoryStore,
  type Plugin,
  type RequestContext,
  type Store,
} from 'api-conventions';

/** What a seams API reported to its logger and keeps in its store. */
export interface SeamsApi {
  /** The conventions to serve. */
  api: Conventions;
  /** The store the plugin counts requests in, one key per identity. */
  store: MemoryStore;
  /** The errors the logger received, in order. */
  faults: unknown[];
  /** How many times each hook of the plugin ran, all requests together. */
  calls: HookCalls;
}

/** How many times each request hook of the plugin ran. */
export interface HookCalls {
  onRequest: number;
  preParsing: number;
  preSerialization: number;
  onSend: number;
}

const encoder = new TextEncoder();

/** The byte length of a serialized body; 0 for none. */
export function byteLength(body: string | Uint8Array | null): number {
  if (body === null) return 0;
  return typeof body === 'string' ? encoder.encode(body).byteLength : body.byteLength;
}

/** A flat object as two CSV lines, names then values; anything else as one JSON cell. */
export function toCsv(value: unknown): string {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return `value\n${JSON.stringify(value)}\n`;
  }
  const entries = Object.entries(value);
  const cell = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));
  return `${entries.map(([k]) => k).join(',')}\n${entries.map(([, v]) => cell(v)).join(',')}\n`;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' &&
  value !== null &&
  !Array.isArray(value) &&
  !(value instanceof Uint8Array);

/** The store key of the caller's request count. */
const countKey = (ctx: RequestContext) => `hits:${ctx.identity?.subject ?? 'anonymous'}`;

/** How many requests the store has counted for the caller; 0 before the first. */
async function countOf(store: Store, ctx: RequestContext): Promise<number> {
  return Number((await store.get(countKey(ctx))) ?? 0);
}

/** The plugin under test: each hook is one seam, each leaves a trace a client can see. */
export function seamsPlugin(store: Store, calls: HookCalls): Plugin {
  return {
    name: 'seams',
    headers: { 'x-seams': 'on' },
    serializers: { 'text/csv': (value) => toCsv(value) },
    routes: {
      '/v1/plugin-status': {
        GET: async (ctx) => ({ plugin: 'seams', requests: await countOf(store, ctx) }),
      },
    },
    // Pre-routing: every request, matched or not, gets Vary and its identity; teapots are gone.
    onRequest(ctx) {
      calls.onRequest++;
      ctx.responseHeaders.vary('Origin');
      const user = ctx.headers.get('x-user');
      if (user) ctx.identity = { subject: user, scopes: new Set(), via: 'x-user' };
      if (ctx.path === '/v1/teapots')
        throw new ApiError(410, ErrorCode.Gone, 'Teapots were retired; brew elsewhere.');
    },
    // After a route matched: one request more for this identity, through the store's get/set.
    async preParsing(ctx) {
      calls.preParsing++;
      const count = (await countOf(store, ctx)) + 1;
      await store.set(countKey(ctx), String(count));
      ctx.responseHeaders.set('x-request-count', count);
    },
    // The transform: success objects say whom they were served to; ?format=csv picks CSV.
    preSerialization(ctx, out) {
      calls.preSerialization++;
      if (out.status >= 400 || !isPlainObject(out.body)) return;
      out.body = { ...out.body, servedTo: ctx.identity?.subject ?? 'anonymous' };
      if (ctx.query.get('format') === 'csv') out.type = 'text/csv';
    },
    // The send phase sees the final bytes, errors and bodiless answers included.
    onSend(_ctx, sent) {
      calls.onSend++;
      sent.headers.set('x-body-length', byteLength(sent.body));
    },
  };
}

/** The service's own routes beside the plugin's: one reads the identity, one fails. */
export function createSeamsApi(): SeamsApi {
  const store = new MemoryStore();
  const faults: unknown[] = [];
  const calls: HookCalls = { onRequest: 0, preParsing: 0, preSerialization: 0, onSend: 0 };
  const api = conventions({
    routes: {
      '/v1/whoami': {
        GET: (ctx) => ({ subject: ctx.identity?.subject ?? null, via: ctx.identity?.via ?? null }),
      },
      '/v1/failures': {
        GET: () => {
          throw new Error('the seams suite failed on purpose');
        },
      },
    },
    plugins: [seamsPlugin(store, calls)],
    logger: { error: (record) => faults.push(record.err), warn() {} },
  });
  return { api, store, faults, calls };
}
