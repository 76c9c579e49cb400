/** Asynchronous work (spec 4.3, RFC 9110 §15.3.3): 202 + Location of a status resource, pending → done. */
import { isApiError } from '../errors/api-error.ts';
import { ErrorCode } from '../errors/catalogue.ts';
import { notFound } from '../errors/helpers.ts';
import { consoleLogger, type Logger } from '../errors/logger.ts';
import { HeaderBag } from '../http/headers.ts';
import { accepted, ok, type Reply } from '../http/reply.ts';
import { assertInteger, assertKnownKeys } from '../internal/options.ts';
import type { RequestContext } from '../kernel/context.ts';
import type { Plugin, PluginSetup } from '../kernel/plugin.ts';
import type { RouteTable } from '../kernel/route-table.ts';
import { andThen, type Step } from '../kernel/steps.ts';
import { type GuardedStore, guardStore } from '../stores/guard-store.ts';
import { MemoryStore } from '../stores/memory-store.ts';
import type { Store } from '../stores/store.ts';
import type { StoreBudgetHolder } from '../stores/store-budget.ts';
import { type JobStatus, statusDocument } from './job-status.ts';
import { isSeeOther } from './see-other.ts';

/**
 * Options of {@link createJobs}.
 *
 * @category Asynchronous work
 */
export interface JobsOptions {
  /** The path of the status resources, such as `/v1/book-imports`: each job's is `<path>/<id>`. */
  path: string;
  /** Where job states are kept (several instances share a Redis store). @default a MemoryStore */
  store?: Store;
  /** How long a job's status stays readable after it was accepted, in milliseconds. @default 3600000 */
  ttlMs?: number;
  /** The `Retry-After` of a pending status, in seconds. @default 1 */
  retryAfter?: number;
}

/**
 * Asynchronous work with status resources, from {@link createJobs}: a plugin, whose status
 * resource route comes with it.
 *
 * @category Asynchronous work
 */
export interface Jobs extends Plugin {
  /**
   * Starts `work` and answers 202 with the `Location` of its status resource and the pending
   * status as the body. What `work` resolves to is the result shown inline, or a {@link seeOther}
   * to answer 303; what it throws is reported in the status body. Given the request (`ctx`),
   * the pending status is stored within that request's store budget.
   */
  start(work: () => Promise<unknown> | unknown, ctx?: StoreBudgetHolder): Step<Reply<JobStatus>>;
  /**
   * The status of a job, `undefined` when there is none by that id (or it expired); read within
   * the store budget of the request `ctx`, when given.
   */
  status(id: string, ctx?: StoreBudgetHolder): Step<JobStatus | undefined>;
  /**
   * The status resource's route, `GET <path>/:id`: it comes with the plugin, or spread it into
   * the route table (to give it settings of its own).
   */
  readonly routes: RouteTable;
}

const known = ['path', 'store', 'ttlMs', 'retryAfter'];
const idShape = /^[0-9a-f-]{36}$/;

function newId(): string {
  return globalThis.crypto.randomUUID();
}

/** The jobs of {@link createJobs}: their store, their status route, and where faults go. */
class JobsPlugin implements Jobs {
  readonly name: string;
  readonly routes: RouteTable;
  private readonly path: string;
  private readonly ttlMs: number;
  private readonly retryAfter: number;
  private readonly store: GuardedStore;
  /**
   * Where faults of a job's work (anything but an `ApiError`) go: the service's logger once the
   * jobs are among its `plugins`, the default logger before.
   */
  private logger: Required<Logger> = consoleLogger;

  constructor(options: JobsOptions) {
    assertKnownKeys('createJobs()', options, known);
    const path = options?.path;
    if (typeof path !== 'string' || !/^\/[a-z0-9/_-]*[a-z0-9]$/.test(path)) {
      throw new TypeError(
        `createJobs() path must be the lower-case path of the status resources, such as '/v1/book-imports'; got ${String(path)}.`,
      );
    }
    this.name = `jobs ${path}`;
    this.path = path;
    this.ttlMs = assertInteger('createJobs() ttlMs', options.ttlMs ?? 3_600_000, 1000, 2 ** 31 - 1);
    this.retryAfter = assertInteger('createJobs() retryAfter', options.retryAfter ?? 1, 0, 86_400);
    this.store = guardStore(options.store ?? new MemoryStore(), { prefix: 'job:' });
    this.routes = {
      [`${path}/:id`]: {
        GET: { config: { openapi: statusDocument }, handler: (ctx) => this.answer(ctx) },
      },
    };
  }

  /** Takes the service's logger. */
  setup({ logger }: PluginSetup): void {
    this.logger = logger;
  }

  start(work: () => Promise<unknown> | unknown, ctx?: StoreBudgetHolder): Step<Reply<JobStatus>> {
    const job: JobStatus = {
      id: newId(),
      status: 'pending',
      createdAt: new Date().toISOString(),
    };
    return andThen(this.save(job, ctx), () => {
      this.run(job, work);
      return accepted(`${this.path}/${job.id}`, job, { 'retry-after': this.retryAfter });
    });
  }

  status(id: string, ctx?: StoreBudgetHolder): Step<JobStatus | undefined> {
    if (!idShape.test(id)) return undefined;
    return andThen(this.store.get(id, ctx), (text) =>
      text === undefined ? undefined : (JSON.parse(text) as JobStatus),
    );
  }

  /** `GET <path>/:id`: the status, 404 for none, `Retry-After` while pending, 303 to an outcome. */
  private answer(ctx: RequestContext) {
    return andThen(this.status(ctx.param('id'), ctx), (job) => {
      if (job === undefined)
        throw notFound(`No job with id "${ctx.param('id').slice(0, 64)}" at ${this.path}.`);
      if (job.status === 'pending') return ok(job, { 'retry-after': this.retryAfter });
      if (job.location !== undefined) {
        const reply = ok(job, new HeaderBag({ location: job.location }));
        reply.status = 303;
        return reply;
      }
      return job;
    });
  }

  private save(job: JobStatus, ctx?: StoreBudgetHolder) {
    return this.store.set(job.id, JSON.stringify(job), this.ttlMs, ctx);
  }

  private settle(job: JobStatus, outcome: Partial<JobStatus>) {
    return this.save({ ...job, ...outcome, finishedAt: new Date().toISOString() });
  }

  private failed(error: unknown): JobStatus['errors'] {
    if (isApiError(error)) return error.errors.map(({ message, code }) => ({ message, code }));
    this.logger.error({ err: error, path: this.path }, 'a job failed');
    return [
      { message: 'The work failed on our side; it has been logged.', code: ErrorCode.Internal },
    ];
  }

  private run(job: JobStatus, work: () => Promise<unknown> | unknown): void {
    const finish = (value: unknown) =>
      this.settle(
        job,
        isSeeOther(value)
          ? { status: 'done', location: value.location }
          : { status: 'done', result: value },
      );
    Promise.resolve()
      .then(work)
      .then(finish, (error) => this.settle(job, { status: 'failed', errors: this.failed(error) }))
      .catch((error) =>
        this.logger.error({ err: error, path: this.path }, 'a job status could not be saved'),
      );
  }
}

/**
 * Status resources for asynchronous work (spec 4.3): `start` answers `202 Accepted` with the
 * `Location` of `<path>/<id>`; a GET there answers the status, `pending` (with `Retry-After`),
 * then `done` with the result inline, or `303 See Other` to the result when the work ended with
 * {@link seeOther}; a failure is reported in the status body's `errors`, and its fault to the
 * service's `logger`. The jobs are a plugin: among the `plugins`, their status route comes with
 * them.
 *
 * @example
 * ```ts
 * import { conventions, createJobs } from 'api-conventions';
 *
 * // The work itself: here, counting what was sent.
 * const importBooks = async (list: unknown) => ({ imported: Array.isArray(list) ? list.length : 0 });
 *
 * const imports = createJobs({ path: '/v1/book-imports' });
 * const api = conventions({
 *   routes: { '/v1/book-imports': { POST: (ctx) => imports.start(() => importBooks(ctx.body)) } },
 *   plugins: [imports], // GET /v1/book-imports/:id answers each import's status
 * });
 * ```
 *
 * @category Asynchronous work
 */
export function createJobs(options: JobsOptions): Jobs {
  return new JobsPlugin(options);
}
