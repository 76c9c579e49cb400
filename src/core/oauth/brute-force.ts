/**
 * Failed logins counted per username, per client and network, and per client, in the store;
 * past a limit, 429. Shared by the token endpoint and the authorization helpers.
 */
import { ApiError } from '../errors/api-error.ts';
import { ErrorCode } from '../errors/catalogue.ts';
import type { RequestContext } from '../kernel/context.ts';
import { clientNetwork } from '../rate-limit/identity.ts';
import type { GuardedStore } from '../stores/guard-store.ts';
import type { FailureLimits } from './brute-force-options.ts';
import type { CompiledClient } from './compile-clients.ts';
import { digestKey } from './secrets.ts';

function tooMany(expiresAt: number): ApiError {
  // The counter's own end (a fixed window), so Retry-After is when the lock lifts.
  const wait = Math.max(1, Math.ceil((expiresAt - Date.now()) / 1000));
  const message = `Too many failed attempts; try again in ${wait} seconds.`;
  return new ApiError(429, ErrorCode.TooManyRequests, message, {
    headers: { 'retry-after': String(wait) },
    extra: { error: 'invalid_request', error_description: message },
  });
}

/**
 * One request's login attempt. Each counter it passes is counted *before* a secret or password
 * is compared (increment first, then compare the result: one atomic store call), so of any
 * number of concurrent guesses at most the limit are ever compared. A wrong credential keeps
 * what was counted (`fail`); anything else gives it back (`settle`): a right password, a refusal
 * past a limit (it compared nothing), a request that failed for another reason.
 */
export class LoginAttempt {
  private readonly held: string[] = [];
  private failed = false;

  constructor(
    private readonly store: GuardedStore,
    private readonly limits: FailureLimits,
    private readonly network: string,
    private readonly idOf: (client: CompiledClient) => Promise<string>,
    // The request counted: its counters wait out of its store budget.
    private readonly ctx: RequestContext,
  ) {}

  /**
   * Counts the attempt against a client: its count from this network and its count from every
   * network. An unknown client id is counted by network alone, so made-up ids write one counter
   * per network, never one per id.
   */
  async client(client: CompiledClient | undefined): Promise<void> {
    const { maxClientFailures, windowMs, maxClientTotalFailures, clientWindowMs } = this.limits;
    if (client === undefined) {
      await this.reserve(`bf:n:${this.network}`, maxClientFailures, windowMs);
      return;
    }
    const id = await this.idOf(client);
    // The narrow count first: a network past its own limit never touches the shared ceiling.
    await this.reserve(`bf:c:${id}:${this.network}`, maxClientFailures, windowMs);
    await this.reserve(`bf:t:${id}`, maxClientTotalFailures, clientWindowMs);
  }

  /** Counts the attempt against a username (case-insensitive, NFC). */
  async user(username: string): Promise<void> {
    const key = `bf:u:${await digestKey(username.normalize('NFC').toLowerCase())}`;
    await this.reserve(key, this.limits.maxFailures, this.limits.windowMs);
  }

  /** The credential was wrong: every counter passed keeps this attempt. */
  fail(): void {
    this.failed = true;
  }

  /** Gives back what was counted, unless the attempt failed; idempotent. */
  async settle(): Promise<void> {
    if (this.failed || this.held.length === 0) return;
    await this.giveBack(this.held.splice(0));
  }

  private async reserve(key: string, max: number, ttlMs: number): Promise<void> {
    // One call per key: keys of different users and clients live in different Redis Cluster
    // slots, and one script may only touch one slot (`CROSSSLOT`).
    const [counter] = await this.store.hit([{ key, ttlMs }], 1, this.ctx);
    if (counter!.value <= max) {
      this.held.push(key);
      return;
    }
    await this.giveBack([key, ...this.held.splice(0)]);
    throw tooMany(counter!.expiresAt);
  }

  private async giveBack(keys: readonly string[]): Promise<void> {
    // A counter that expired meanwhile comes back at -1 for 1 ms only, so no later window
    // starts with a spare attempt.
    await Promise.all(keys.map((key) => this.store.hit([{ key, ttlMs: 1 }], -1, this.ctx)));
  }
}

/**
 * The failure counter of one server: a store of its own budget (see `BruteForceOptions.store`)
 * and the limits. `begin` starts one request's {@link LoginAttempt}.
 */
export class FailureCounter {
  // The key part of each registered client, digested once (only registered clients get one).
  private readonly ids = new Map<string, Promise<string>>();
  private readonly idOf = (client: CompiledClient): Promise<string> => {
    let id = this.ids.get(client.id);
    if (id === undefined) {
      id = digestKey(client.id);
      this.ids.set(client.id, id);
    }
    return id;
  };

  constructor(
    private readonly store: GuardedStore,
    private readonly limits: FailureLimits,
  ) {}

  /** Starts the login attempt of a request, counted by the network of its client address. */
  begin(ctx: RequestContext): LoginAttempt {
    const network = clientNetwork(ctx.remoteAddress, this.limits.ipv6Prefix);
    return new LoginAttempt(this.store, this.limits, network, this.idOf, ctx);
  }
}

/**
 * Runs `work` with the login attempt of a request (none when counting is off) and settles the
 * attempt however `work` ends, so a reservation is never left behind by a thrown error.
 */
export async function withAttempt<T>(
  counter: FailureCounter | undefined,
  ctx: RequestContext,
  work: (attempt: LoginAttempt | undefined) => Promise<T>,
): Promise<T> {
  if (counter === undefined) return work(undefined);
  const attempt = counter.begin(ctx);
  try {
    return await work(attempt);
  } finally {
    await attempt.settle();
  }
}
