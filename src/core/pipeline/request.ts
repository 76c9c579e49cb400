/** The request phases of a matched route: `authenticate` → `preParsing` → body → field rules → `preHandler`. */

import { ApiError, isApiError } from '../errors/api-error.ts';
import { ErrorCode } from '../errors/catalogue.ts';
import { payloadTooLarge } from '../errors/helpers.ts';
import type { Logger } from '../errors/logger.ts';
import type { BodyStructure, StructureLimits } from '../http/body-structure.ts';
import type { ContentCoding } from '../http/content-coding.ts';
import { type BodyFormat, bodyFormat, parseBody, parseBodyAs } from '../http/parse-body.ts';
import { isReply } from '../http/reply.ts';
import type { OutgoingResponse } from '../http/response.ts';
import { checkValueStructure } from '../http/structure-scan.ts';
import { withinBudget } from '../kernel/check-budget.ts';
import type { RequestContext, RequestInput } from '../kernel/context.ts';
import type { CheckResult } from '../kernel/plugin.ts';
import type { RouteSettings } from '../kernel/route-types.ts';
import { andThen, runHooks, type Step } from '../kernel/steps.ts';
import { checkTransferCoding, contentCodingsOf, decodeBody } from '../limits/body-coding.ts';
import { compileFields } from '../validation/check-fields.ts';
import { isStandardSchema, type RequestPart, schemaCheck } from '../validation/standard-schema.ts';
import { startHeaders } from './answers.ts';
import { checkParts, type PartCheck } from './schemas.ts';

type Check = (ctx: RequestContext) => Step<CheckResult>;

/**
 * What the request phases read, compiled once.
 *
 * @category Plugins and pipeline
 */
interface RequestPlan {
  authenticate: Check[];
  preParsing: Check[];
  preHandler: Check[];
  bodyLimit: number;
  bodyTimeout: number;
  bodyStructure: StructureLimits;
  checkTimeout: number;
  development: boolean;
  logger: Required<Logger>;
}

/** A route's settings compiled for the request path: its checkers and body formats. */
interface CompiledRoute {
  check: PartCheck | undefined;
  /** The `params`, `query` and `headers` schemas, checked before the body is read. */
  parts: readonly [RequestPart, PartCheck][];
  accepts: readonly BodyFormat[];
  encodings: readonly ContentCoding[];
  readsBody: boolean;
  /** The route's own `bodyStructure` (checked at start-up), and its bounds over the service's. */
  structure: {
    own: Readonly<BodyStructure> | undefined;
    over?: StructureLimits;
    bounds?: StructureLimits;
  };
}

const compiled = new WeakMap<RouteSettings, CompiledRoute>();
const withBody = new Set(['POST', 'PUT', 'PATCH']);
const defaultAccepts: readonly BodyFormat[] = ['json'];

/**
 * Compiles a route's settings once (table routes at start-up, guarded routes when declared).
 *
 * @category Plugins and pipeline
 */
export function compileRoute(route: RouteSettings): CompiledRoute {
  let done = compiled.get(route);
  if (done !== undefined) return done;
  const { config, method } = route;
  const rules = config.body;
  // A DELETE body has no defined meaning (RFC 9110 §9.3.5) and routes cannot declare body rules
  // for it, so it is never read; nor are GET's and HEAD's. One of the app's own routes has its
  // body read only when its settings say how: otherwise the app's own parser or validator
  // (express.json(), @hono/zod-validator) reads it.
  const readsBody =
    withBody.has(method) &&
    (route.app !== true ||
      rules !== undefined ||
      config.accepts !== undefined ||
      config.encodings !== undefined ||
      config.bodyLimit !== undefined ||
      config.bodyStructure !== undefined);
  done = {
    readsBody,
    accepts: config.accepts ?? defaultAccepts,
    encodings: config.encodings ?? [],
    structure: { own: config.bodyStructure },
    check:
      rules && readsBody
        ? isStandardSchema(rules)
          ? schemaCheck(rules, 'body')
          : compileFields(rules, {
              partial: method === 'PATCH',
              rejectUnknown: config.rejectUnknownFields ?? true,
            })
        : undefined,
    parts: (['params', 'query', 'headers'] as const).flatMap((part) => {
      const schema = config[part];
      return schema === undefined
        ? []
        : [[part, schemaCheck(schema, part)] as [RequestPart, PartCheck]];
    }),
  };
  compiled.set(route, done);
  return done;
}

/**
 * The checks of a matched route, before its body is read: authentication (`authenticate`), then
 * `preParsing` (limits by the verified caller, access checks).
 *
 * @category Plugins and pipeline
 */
export function checkRequest(plan: RequestPlan, ctx: RequestContext): Step<CheckResult> {
  const { authenticate, preParsing } = plan;
  if (authenticate.length === 0) return runHooks(preParsing, ctx);
  return andThen(runHooks(authenticate, ctx), (early) =>
    early === undefined ? runHooks(preParsing, ctx) : early,
  );
}

/**
 * The body of a matched route: read, parsed and checked against its field rules, then the
 * `preHandler` checks.
 *
 * @category Plugins and pipeline
 */
export function prepareBody(
  plan: RequestPlan,
  ctx: RequestContext,
  input: RequestInput,
): Step<CheckResult> {
  const route = compileRoute(ctx.route!);
  if (route.parts.length === 0) {
    return andThen(readBody(plan, ctx, input, route), () => checkBody(plan, ctx, route));
  }
  return andThen(checkParts(ctx, route.parts, 0, plan.checkTimeout), () =>
    andThen(readBody(plan, ctx, input, route), () => checkBody(plan, ctx, route)),
  );
}

/**
 * The bounds on a route's body: the service's, or the route's own over them, merged once per
 * service (a route belongs to one service in practice; another one only merges again).
 */
function boundsOf(plan: RequestPlan, route: CompiledRoute): StructureLimits {
  const { structure } = route;
  if (structure.own === undefined) return plan.bodyStructure;
  if (structure.over !== plan.bodyStructure || structure.bounds === undefined) {
    structure.bounds = Object.freeze({ ...plan.bodyStructure, ...structure.own });
    structure.over = plan.bodyStructure;
  }
  return structure.bounds;
}

function readBody(
  plan: RequestPlan,
  ctx: RequestContext,
  input: RequestInput,
  route: CompiledRoute,
): Step<void> {
  if (!route.readsBody) {
    // What the host's parser made of it, as it is, for the `preHandler` checks (a form's token).
    if (input.parsedBody !== undefined) ctx.body = input.parsedBody.value;
    return;
  }
  const bounds = boundsOf(plan, route);
  if (input.parsedBody !== undefined) {
    const { value } = input.parsedBody;
    if (value !== undefined) {
      bodyFormat(ctx.headers.get('content-type'), route.accepts);
      // The host's parser has made it already; no schema or field rule sees it past the bounds.
      checkValueStructure(value, bounds);
    }
    ctx.body = value;
    return;
  }
  if (input.readBody === undefined) return;
  // Everything the head says is decided before a byte is read, so that a refused body is never
  // read and a client waiting on `Expect: 100-continue` gets the final answer instead.
  const { headers } = ctx;
  const limit = ctx.route!.config.bodyLimit ?? plan.bodyLimit;
  if (Number(headers.get('content-length')) > limit) throw payloadTooLarge(limit);
  checkTransferCoding(headers);
  const type = headers.get('content-type');
  const format = type ? bodyFormat(type, route.accepts) : undefined;
  const codings = contentCodingsOf(headers, route.encodings);
  const read = input.readBody(limit, { timeoutMs: plan.bodyTimeout });
  const parse = (bytes: Uint8Array) => {
    ctx.body =
      format === undefined
        ? parseBody(bytes, type, route.accepts, bounds)
        : parseBodyAs(bytes, format, bounds);
  };
  if (codings === undefined) return read.then(parse);
  return read
    .then((bytes) => decodeBody(bytes, codings, input.decodeBody, limit, route.encodings))
    .then(parse);
}

function checkBody(
  plan: RequestPlan,
  ctx: RequestContext,
  route: CompiledRoute,
): Step<CheckResult> {
  const { check } = route;
  if (check === undefined) return runHooks(plan.preHandler, ctx);
  const checked = withinBudget(check(ctx.body), plan.checkTimeout, () => 'The body schema');
  return andThen(checked, (body) => {
    ctx.body = body;
    ctx.setValid('body', body);
    return runHooks(plan.preHandler, ctx);
  });
}

const warned = new WeakSet<RouteSettings>();

/**
 * Turns what a handler (or a check) returned into the outgoing response: a reply as it says,
 * data as 200, nothing as 204, an error as if it were thrown, and a bare top-level array as a
 * 500 (spec 2.7). Headers the
 * context gathered come first; the reply's are merged into them.
 *
 * @category Plugins and pipeline
 */
export function toOutgoing(
  plan: RequestPlan,
  ctx: RequestContext,
  result: unknown,
): OutgoingResponse {
  if (isReply(result)) {
    const headers = ctx.hasResponseHeaders
      ? startHeaders(ctx).merge(result.headers)
      : result.headers;
    return { status: result.status, headers, body: result.body };
  }
  // A returned error is answered as the error it is, as if thrown: `return notFound(…)` (or an
  // http-errors value) would otherwise be sent as `{}` with 200 (docs/errors.md).
  if (result instanceof Error || isApiError(result)) throw result;
  const headers = startHeaders(ctx);
  if (result === undefined) {
    if (plan.development && ctx.method === 'POST' && ctx.route && !warned.has(ctx.route)) {
      warned.add(ctx.route);
      ctx.logger.warn(
        `${ctx.route.method} ${ctx.route.pattern} returned nothing, so it answered 204; return created(location, data) for a 201, or noContent() to say 204 on purpose.`,
      );
    }
    return { status: 204, headers, body: undefined };
  }
  if (Array.isArray(result)) throw bareArray();
  return { status: 200, headers, body: result };
}

/** spec 2.7: a list is wrapped in an object; a bare array is a programming error, a logged 500. */
export function bareArray(): ApiError {
  return new ApiError(
    500,
    ErrorCode.BareArray,
    'Something went wrong on our side; it has been logged.',
    {
      cause: new TypeError(
        'A handler returned a bare top-level array; wrap lists in an object (spec 2.7).',
      ),
    },
  );
}
