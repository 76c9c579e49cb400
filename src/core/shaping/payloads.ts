/** The `payloads()` plugin: lists paged and enveloped, items shaped and linked, by route declaration. */
import { invalidRequest } from '../errors/helpers.ts';
import { consoleLogger, type Logger } from '../errors/logger.ts';
import { walkDateTextsWith } from '../http/json.ts';
import type { OutgoingResponse } from '../http/response.ts';
import { assertKnownKeys } from '../internal/options.ts';
import type { RequestContext } from '../kernel/context.ts';
import { ownTransform } from '../kernel/own-transforms.ts';
import type { Plugin, PluginSetup } from '../kernel/plugin.ts';
import type { RouteInfo } from '../kernel/route-table.ts';
import type { RouteSettings } from '../kernel/route-types.ts';
import { lazyRandomSecret } from '../paging/cursor.ts';
import { pageLinks } from '../paging/link-header.ts';
import { compileList, type ListSpec } from '../paging/list-options.ts';
import { ListPage, ListQuery } from '../paging/list-query.ts';
import {
  checkPolicy,
  compileRules,
  type ParameterRules,
  type UnknownParameterPolicy,
  unknownParameterProblems,
} from '../paging/unknown-parameters.ts';
import { checkPayload } from './check-payload.ts';
import { dateTextsOf } from './date-texts.ts';
import { type Projector, projectorOf } from './project.ts';
import type { Resource, Selection } from './resource.ts';

/**
 * Options of {@link payloads}.
 *
 * @category Payloads
 */
export interface PayloadsOptions {
  /**
   * The secret paging cursors are sealed with (at least 16 bytes; 32 random bytes are best).
   * Give every instance of a service the same one, or a cursor from one fails on another.
   * @default 32 random bytes per process: cursors last as long as the process
   */
  cursorSecret?: string | Uint8Array;
  /**
   * What a list or resource route does with a query parameter it does not declare (see
   * {@link UnknownParameterPolicy}): let it through unless it looks like a misspelling of one
   * the route reads (`'typos'`), a 400 naming it (`'reject'`), or nothing (`'ignore'`). A
   * route's `list.unknownParameters` overrides it. @default 'typos'
   */
  unknownParameters?: UnknownParameterPolicy;
  /**
   * Query parameters other features read, accepted on every list and resource route; a name
   * ending in `*` accepts every name it begins (`utm_*`). @default ['format', 'access_token']
   */
  parameters?: readonly string[];
  /**
   * Development aid: check each 2xx body against the payload rules and warn through `logger`
   * (mixed naming styles, dates that are not RFC 3339, lists under singular names), once per
   * route and finding. It never fails a request. @default false
   */
  checkPayloads?: boolean;
}

/** What the plugin compiled for one route. */
interface RoutePlan {
  list: ListSpec | undefined;
  resource: Resource | undefined;
  /** Parameters a resource route reads (`fields`, `view` and the plugin's), when it is no list. */
  known: ParameterRules | undefined;
  /** What recent query strings read as (see {@link rememberRead}). */
  reads: Map<string, QueryRead>;
}

/** What a query string reads as on one route: its list request and its selection. */
interface QueryRead {
  readonly list: ListQuery | undefined;
  readonly selection: Selection | undefined;
}

// A list's clients send the same few query strings again and again (`per_page=20`, the next
// page's link): what each reads as is a pure function of the route and the text, so the last ones
// read are kept, at most `readsKept` per route and only short ones, the table emptied when full
// (a client that sends a new query each time costs one look-up more, and grows nothing). A kept
// list request is shared by the requests that send that text: it is frozen, and kept only when
// it holds no `Date` (a filter or a cursor on an instant), whose value freezing cannot protect.
const readsKept = 256;
const keptQueryLength = 512;

function primitive(value: unknown): boolean {
  return typeof value !== 'object' || value === null;
}

/** Freezes a list request for sharing; false when it holds a `Date` and cannot be shared. */
function shareable(list: ListQuery): boolean {
  const positions = [list.after, list.before];
  for (const name in list.filters) if (!primitive(list.filters[name])) return false;
  for (const position of positions) if (position?.values?.every(primitive) === false) return false;
  for (const position of positions) {
    if (position === undefined) continue;
    Object.freeze(position.values);
    Object.freeze(position);
  }
  Object.freeze(list.filters);
  for (const field of list.sort) Object.freeze(field);
  Object.freeze(list.sort);
  Object.freeze(list);
  return true;
}

function rememberRead(reads: Map<string, QueryRead>, query: string, read: QueryRead): void {
  if (query.length > keptQueryLength) return;
  if (read.list !== undefined && !shareable(read.list)) return;
  if (reads.size >= readsKept) reads.clear();
  reads.set(query, read);
}

const listKey = Symbol('api-conventions.list');
const selectionKey = Symbol('api-conventions.selection');
type Carrier = Record<symbol, unknown>;

/**
 * The parsed list request of a route that declares `config.list`: its paging, filters, `q` and
 * `sort`, already checked (a wrong value was a 400 before the handler ran).
 *
 * @example
 * ```ts
 * import { conventions, listQuery, payloads, type RequestContext } from 'api-conventions';
 *
 * const allBooks = [{ id: 'emma', title: 'Emma', year: 1815 }];
 * const listBooks = (ctx: RequestContext) => listQuery(ctx).pageArray(allBooks);
 * const api = conventions({
 *   plugins: [payloads()],
 *   routes: {
 *     '/v1/books': { GET: { handler: listBooks, config: { list: { name: 'books', sort: ['year'] } } } },
 *   },
 * });
 * ```
 *
 * @category Payloads
 */
export function listQuery(ctx: RequestContext): ListQuery {
  const query = (ctx.state as Carrier)[listKey];
  if (query === undefined) {
    throw new TypeError(
      `Route ${ctx.route?.method ?? ''} ${ctx.route?.pattern ?? '(none)'} declares no \`list\` in its config, or the payloads() plugin is missing.`,
    );
  }
  return query as ListQuery;
}

/**
 * Pages an in-memory array by the request of a route that declares `config.list`: filters,
 * search, sort and the request's paging style. Returns the page; the response step wraps it.
 *
 * @example
 * ```ts
 * import { conventions, pageArray, payloads } from 'api-conventions';
 *
 * const books = [
 *   { id: 'emma', title: 'Emma', year: 1815 },
 *   { id: 'persuasion', title: 'Persuasion', year: 1817 },
 * ];
 * const api = conventions({
 *   plugins: [payloads()],
 *   routes: {
 *     '/v1/books': {
 *       // ?year=1817, ?sort=-year, ?page=2: filtered, sorted and paged from the array.
 *       GET: {
 *         handler: (ctx) => pageArray(ctx, books),
 *         config: { list: { name: 'books', sort: ['year'], filters: { year: 'integer' } } },
 *       },
 *     },
 *   },
 * });
 * ```
 *
 * @category Payloads
 */
export function pageArray<T extends object>(ctx: RequestContext, items: readonly T[]): ListPage<T> {
  return listQuery(ctx).pageArray(items);
}

const optionKeys = ['cursorSecret', 'unknownParameters', 'parameters', 'checkPayloads'];
const encoder = new TextEncoder();

/** The plugin of {@link payloads}: each route's list and resource, compiled once. */
class PayloadsPlugin implements Plugin {
  readonly name = 'payloads';
  readonly routeConfig = ['list', 'resource'];
  private readonly unknownParameters: UnknownParameterPolicy;
  private readonly parameters: readonly string[];
  /** One secret for all the routes of this plugin, so that the GET and HEAD of a list agree. */
  private readonly sealSecret: Uint8Array | (() => Uint8Array);
  private readonly check: boolean;
  /** Where payload checks warn: the service's logger, once set up. */
  private logger: Pick<Logger, 'warn'> = consoleLogger;
  private readonly warned = new Set<string>();
  private readonly plans = new Map<RouteSettings, RoutePlan>();

  constructor(options: PayloadsOptions) {
    assertKnownKeys('payloads()', options, optionKeys);
    this.unknownParameters = checkPolicy('payloads()', options.unknownParameters ?? 'typos');
    this.parameters = options.parameters ?? ['format', 'access_token'];
    let secret: Uint8Array | undefined;
    if (options.cursorSecret !== undefined) {
      secret =
        typeof options.cursorSecret === 'string'
          ? encoder.encode(options.cursorSecret)
          : options.cursorSecret;
      if (!(secret instanceof Uint8Array) || secret.length < 16) {
        throw new TypeError(
          'payloads(): `cursorSecret` must be at least 16 bytes (32 random bytes are best).',
        );
      }
    }
    this.sealSecret = secret ?? lazyRandomSecret();
    this.check = options.checkPayloads === true;
  }

  /** Takes the service's logger. */
  setup({ logger }: PluginSetup): void {
    this.logger = logger;
  }

  /** Compiles a route's `list` and `resource` at start-up; a mistake is a `TypeError`. */
  onRoute(route: RouteInfo): void {
    const { list, resource } = route.config;
    if (list === undefined && resource === undefined) return;
    const where = `Route "${route.method} ${route.pattern}" config`;
    if (
      resource !== undefined &&
      (typeof resource !== 'object' || typeof (resource as Resource).select !== 'function')
    ) {
      throw new TypeError(`${where}: \`resource\` must be made by defineResource().`);
    }
    const also =
      resource === undefined ? [] : ['fields', ...(resource.views.length > 0 ? ['view'] : [])];
    const { unknownParameters, parameters } = this;
    const spec =
      list === undefined
        ? undefined
        : compileList(`${where}: list`, list, {
            unknownParameters,
            parameters,
            secret: this.sealSecret,
            also,
          });
    const known =
      spec === undefined && unknownParameters !== 'ignore'
        ? compileRules(unknownParameters, [...also, ...parameters])
        : undefined;
    this.plans.set(route, { list: spec, resource, known, reads: new Map() });
  }

  /** Before the handler: the list request and the selection, read (and checked) once. */
  preHandler(ctx: RequestContext): void {
    const plan = ctx.route === undefined ? undefined : this.plans.get(ctx.route);
    if (plan === undefined) return;
    const raw = ctx.rawQuery;
    let read = plan.reads.get(raw);
    if (read === undefined) {
      // The list and the selection are read before the handler, so a wrong value changes
      // nothing; a query that reads wrong throws here and is never kept.
      if (plan.known !== undefined) rejectUnknown(ctx, plan.known);
      const query = raw === '' ? undefined : ctx.query;
      read = {
        list: plan.list === undefined ? undefined : new ListQuery(plan.list, ctx.query),
        selection: plan.resource?.select(query?.get('fields') ?? null, query?.get('view') ?? null),
      };
      rememberRead(plan.reads, raw, read);
    }
    const state = ctx.state as Carrier;
    if (read.list !== undefined) state[listKey] = read.list;
    if (read.selection !== undefined) state[selectionKey] = read.selection;
  }

  /** The transform phase: a page enveloped with its `Link`s, items shaped and linked. */
  preSerialization(ctx: RequestContext, out: OutgoingResponse): void {
    const { body } = out;
    const plan = ctx.route === undefined ? undefined : this.plans.get(ctx.route);
    if (body instanceof ListPage) {
      const resource = plan?.resource;
      let items: readonly unknown[] = body.items;
      if (resource !== undefined) {
        const selection = (ctx.state as Carrier)[selectionKey] as Selection;
        const project = projectorFor(selection);
        const shaped = items.map((item) => shapeItem(ctx, resource, selection, project, item));
        // The copies keep their `Date`s until the JSON writer: what runs between reads them as
        // the handler gave them. A later transform hook may pick another serializer (`out.type`:
        // CSV, a plugin's own) or read the dates (a `Last-Modified` of its own), and in
        // development a route's `response` schema checks the value (`z.date()`). XML would write
        // the same from a text, the others would not, and none of them is known here. So the
        // texts go in at the end: the response's JSON writer puts each into these copies in place
        // (they are this response's alone), which costs no second copy of the items.
        const walker = dateTextsOf(selection.fields);
        if (walker !== null) walkDateTextsWith(shaped, walker, true);
        items = shaped;
      }
      out.body = body.envelope(items);
      for (const link of pageLinks(body, ctx.path, ctx.rawQuery)) out.headers.append('link', link);
    } else if (
      plan?.resource !== undefined &&
      out.status < 300 &&
      typeof body === 'object' &&
      body !== null &&
      !Array.isArray(body) &&
      !(body instanceof Uint8Array)
    ) {
      const selection = (ctx.state as Carrier)[selectionKey] as Selection | undefined;
      if (selection !== undefined) {
        out.body = shapeItem(ctx, plan.resource, selection, projectorFor(selection), body);
      }
    }
    if (this.check && out.status < 300) this.report(ctx, out.body);
  }

  private report(ctx: RequestContext, body: unknown): void {
    const warned = this.warned;
    for (const finding of checkPayload(body)) {
      const line = `${ctx.route?.method ?? ctx.method} ${ctx.route?.pattern ?? ctx.path}: ${finding}`;
      if (warned.has(line)) continue;
      if (warned.size < 1000) warned.add(line);
      ctx.logger.warn(`payload check: ${line}`);
    }
  }
}

function rejectUnknown(ctx: RequestContext, known: ParameterRules): void {
  if (ctx.rawQuery === '') return;
  const problems = unknownParameterProblems(known, ctx.query.keys(), 'resource');
  if (problems.length > 0) throw invalidRequest(problems.slice(0, 1));
}

function shapeItem(
  ctx: RequestContext,
  resource: Resource,
  selection: Selection,
  project: Projector,
  item: unknown,
): unknown {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return item;
  // The links are the copy's last member, made in one go with it (see projectorOf).
  return project(item, selection.links ? resource.linksOf(ctx, item) : undefined);
}

/** The projector of a selection, with a trailing `links` member when it keeps them. */
function projectorFor(selection: Selection): Projector {
  return projectorOf(selection.fields, selection.links ? 'links' : undefined);
}

/**
 * The plugin that applies the payload conventions by declaration on the route, so handlers
 * stay plain: `config.list` (paging in three styles, filters, `q`, `sort`; spec 4.4) is read
 * and checked before the handler, and the {@link ListPage} it returns becomes
 * `{ <name>: [...], hasNext, total? }` with a `Link` header; `config.resource` selects `fields`
 * or a `view` of each item (spec 2.10) and adds its `links` (spec 2.12). Shaping runs in the
 * transform phase, before any serializer.
 *
 * @example
 * ```ts
 * import { conventions, defineResource, pageArray, payloads } from 'api-conventions';
 *
 * const books = [{ id: 'emma', title: 'Emma', year: 1815 }];
 * const book = defineResource({ fields: { id: true, title: true, year: true } });
 * conventions({
 *   plugins: [payloads()],
 *   routes: {
 *     '/v1/books': {
 *       GET: {
 *         handler: (ctx) => pageArray(ctx, books),
 *         config: { list: { name: 'books', filters: { year: 'integer' } }, resource: book },
 *       },
 *     },
 *   },
 * });
 * ```
 *
 * @category Payloads
 */
export function payloads(options: PayloadsOptions = {}): Plugin {
  return ownTransform(new PayloadsPlugin(options));
}
