/**
 * The logger of one request: every line the library writes about a request
 * goes through the service's logger with the request's context (its route, and what plugins add:
 * the request id, the trace id). Built only when the request logs: a request that logs nothing
 * allocates nothing here.
 */
import { callLogger, consoleLogger, isDefaultLogger, type Logger } from '../errors/logger.ts';

/**
 * The fields a plugin adds to every line a request logs (`requestId`, `trace_id`).
 *
 * @category Observability
 */
export type LogFields = Readonly<Record<string, unknown>>;

/** A logger that makes loggers bound to fields, as pino's `child(bindings)` does. */
interface ChildMaker {
  child(bindings: Record<string, unknown>): Logger;
}

/**
 * How a service's requests log, compiled once from its `logger` option and its plugins.
 *
 * @category Plugins and pipeline
 */
export interface LogPlan<C = never> {
  /** The service's logger, checked and guarded. */
  readonly logger: Required<Logger>;
  /** The logger as given, when it makes children (pino): one child per request that logs. */
  readonly parent: ChildMaker | undefined;
  /** Whether the logger is the library's default (the console's): the context is written into the line. */
  readonly plain: boolean;
  /** The plugins' `logFields` hooks, asked when a request first logs. */
  readonly fields: readonly ((ctx: C) => LogFields | undefined)[];
}

/**
 * The log plan of a service: `given` is its `logger` option as given, `logger` the same checked
 * and guarded.
 *
 * @category Plugins and pipeline
 */
export function compileLogPlan<C>(
  given: unknown,
  logger: Required<Logger>,
  fields: readonly ((ctx: C) => LogFields | undefined)[],
): LogPlan<C> {
  const plain = isDefaultLogger(given);
  const parent =
    !plain &&
    typeof given === 'object' &&
    given !== null &&
    typeof (given as Partial<ChildMaker>).child === 'function'
      ? (given as ChildMaker)
      : undefined;
  return { logger, parent, plain, fields };
}

/** What a request logger reads of its request: the route that serves it. */
export interface LoggedRequest {
  /** The matched route, if any. */
  readonly route: { readonly pattern: string } | undefined;
}

/** `key=value` pairs for a line of text; values with spaces are quoted. */
function asText(fields: LogFields): string {
  let text = '';
  for (const key in fields) {
    const value = fields[key];
    if (value === undefined) continue;
    const shown = typeof value === 'string' ? value : JSON.stringify(value);
    text += `${text === '' ? '' : ' '}${key}=${/\s/.test(shown) ? JSON.stringify(shown) : shown}`;
  }
  return text;
}

/**
 * The logger of one request: its lines carry the route and the plugins' fields. pino (a logger
 * with `child`) gets one child per request; the default logger gets the fields at the end of the line;
 * any other logger gets them in the record of `error` and at the end of the `warn` message.
 */
class RequestLogger<C extends LoggedRequest> implements Required<Logger> {
  private readonly ctx: C;
  private readonly plan: LogPlan<C>;
  private bound: LogFields | undefined;
  private child: Logger | undefined;

  constructor(ctx: C, plan: LogPlan<C>) {
    this.ctx = ctx;
    this.plan = plan;
  }

  /** The request's fields, gathered on its first line. */
  private fields(): LogFields {
    if (this.bound !== undefined) return this.bound;
    const fields: Record<string, unknown> = {};
    for (const hook of this.plan.fields) {
      try {
        Object.assign(fields, hook(this.ctx));
      } catch {
        // A plugin that cannot say its fields loses them, never the line.
      }
    }
    const route = this.ctx.route;
    if (route !== undefined) fields.route = route.pattern;
    this.bound = fields;
    return fields;
  }

  private childLogger(parent: ChildMaker): Logger | undefined {
    if (this.child === undefined) {
      try {
        this.child = parent.child({ ...this.fields() });
      } catch {
        return undefined;
      }
    }
    return this.child;
  }

  error: Required<Logger>['error'] = (record, message) => {
    const { plan } = this;
    const child = plan.parent && this.childLogger(plan.parent);
    if (child !== undefined) {
      callLogger(() => child.error(record, message));
    } else if (plan.plain) {
      const text = asText(this.fields());
      consoleLogger.error(record, text === '' ? message : `${message} (${text})`);
    } else {
      plan.logger.error({ ...this.fields(), ...record }, message);
    }
  };

  warn: Required<Logger>['warn'] = (message) => {
    const { plan } = this;
    const child = plan.parent && this.childLogger(plan.parent);
    if (child?.warn !== undefined) {
      callLogger(() => child.warn!(message));
      return;
    }
    const text = asText(this.fields());
    plan.logger.warn(text === '' ? message : `${message} (${text})`);
  };
}

/**
 * The logger of one request, for {@link RequestContext.logger}: lines go to the service's logger
 * with the request's route and the fields plugins add.
 *
 * @category Plugins and pipeline
 */
export function requestLogger<C extends LoggedRequest>(ctx: C, plan: LogPlan<C>): Required<Logger> {
  return new RequestLogger(ctx, plan);
}
