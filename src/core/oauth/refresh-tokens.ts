/**
 * Refresh tokens in families (RFC 9700 §4.14.2): opaque, 256 random bits, kept in the store only
 * as their SHA-256, rotated on every use; using one twice revokes its whole family.
 */

import { randomToken } from '../internal/random.ts';
import type { GuardedStore } from '../stores/guard-store.ts';
import type { StoreBudgetHolder } from '../stores/store-budget.ts';
import { oauthError } from './errors.ts';
import { digestKey } from './secrets.ts';

/** What the store keeps of one refresh token. */
export interface RefreshRecord {
  /** The family: every token rotated from one grant. */
  readonly f: string;
  /** The client it was issued to. */
  readonly c: string;
  /** The user, when there is one. */
  readonly s?: string;
  /** The scope the grant holds, space-separated. */
  readonly sc: string;
  /** When it expires, epoch milliseconds. */
  readonly exp: number;
}

const unknown = 'The refresh token is unknown, expired or revoked.';
// A grant rarely holds more than two live access tokens; past this many, the oldest is revoked.
const maxTracked = 64;

/** Revokes an access token by `jti` until `expiresAt` (epoch seconds): the token side's `revoke`. */
export type RevokeAccess = (jti: string, expiresAt: number) => Promise<void> | void;

/**
 * The refresh-token families of one server, over its store. Each method takes, last, the request
 * it serves (`ctx`), whose store budget its store calls wait out of.
 */
export class RefreshTokens {
  constructor(
    private readonly store: GuardedStore,
    private readonly ttlMs: number,
    private readonly revokeAccess: RevokeAccess | undefined = undefined,
    private readonly now: () => number = Date.now,
  ) {}

  /** A new family id. */
  newFamily(): string {
    return randomToken(16);
  }

  /** Issues a refresh token: a new family, or the next token of `family`. */
  async issue(
    record: Omit<RefreshRecord, 'exp' | 'f'>,
    family = this.newFamily(),
    ctx?: StoreBudgetHolder,
  ): Promise<string> {
    const token = randomToken();
    const full: RefreshRecord = { ...record, f: family, exp: this.now() + this.ttlMs };
    await this.store.set(`rt:${await digestKey(token)}`, JSON.stringify(full), this.ttlMs, ctx);
    return token;
  }

  /** The live record of a token (unused, family not revoked), or `undefined`. */
  async find(token: string, ctx?: StoreBudgetHolder): Promise<RefreshRecord | undefined> {
    const digest = await digestKey(token);
    const record = await this.record(digest, ctx);
    if (record === undefined) return undefined;
    if ((await this.store.get(`rtu:${digest}`, ctx)) !== undefined) return undefined;
    if (await this.revoked(record.f, ctx)) return undefined;
    return record;
  }

  /**
   * Uses a refresh token once (RFC 6749 §6): the caller's `check` runs on the record first (the
   * client, the scope), then the token is marked used with one atomic add. Of two concurrent
   * uses exactly one wins; the other, like any later use, is a replay and revokes the family
   * (RFC 9700 §4.14.2), the winner's new token included.
   */
  async use(
    token: string,
    clientId: string,
    check: (record: RefreshRecord) => void,
    ctx?: StoreBudgetHolder,
  ): Promise<RefreshRecord> {
    const digest = await digestKey(token);
    const record = await this.record(digest, ctx);
    // RFC 6749 §10.4: a refresh token is bound to its client; another client learns nothing.
    if (record === undefined || record.c !== clientId || (await this.revoked(record.f, ctx))) {
      throw oauthError('invalid_grant', unknown);
    }
    check(record);
    if (!(await this.store.add(`rtu:${digest}`, '1', this.ttlMs, ctx))) {
      await this.revokeFamily(record.f, ctx);
      throw oauthError('invalid_grant', unknown);
    }
    return record;
  }

  /**
   * Revokes every token of a family, for as long as any of them can live, and the access tokens
   * issued from it (when the token side can revoke). The mark is written before the list of
   * access tokens is read, and {@link RefreshTokens.track} writes the list before it reads the
   * mark, so an access token issued while the family is being revoked is caught by one of them.
   */
  async revokeFamily(family: string, ctx?: StoreBudgetHolder): Promise<void> {
    await this.store.set(`rtf:${family}`, '1', this.ttlMs + 60_000, ctx);
    if (this.revokeAccess === undefined) return;
    const nowSeconds = this.now() / 1000;
    for (const [jti, exp] of parseTracked(await this.store.get(`rta:${family}`, ctx))) {
      if (exp > nowSeconds) await this.revokeAccess(jti, exp);
    }
  }

  /**
   * Remembers an access token issued from a family, so that revoking the family revokes it
   * (RFC 6749 §4.1.2, RFC 7009 §2.1). Answers `false`, and revokes the token at once, when the
   * family was revoked meanwhile (a replay that raced this grant).
   */
  async track(
    family: string,
    jti: string,
    expiresAt: number,
    ctx?: StoreBudgetHolder,
  ): Promise<boolean> {
    if (this.revokeAccess === undefined) return !(await this.revoked(family, ctx));
    const nowSeconds = this.now() / 1000;
    const key = `rta:${family}`;
    const live = parseTracked(await this.store.get(key, ctx)).filter(([, exp]) => exp > nowSeconds);
    live.push([jti, expiresAt]);
    // Appends come one at a time: each needs the refresh token the one before it issued.
    for (const [old, exp] of live.splice(0, Math.max(0, live.length - maxTracked))) {
      await this.revokeAccess(old, exp);
    }
    const until = Math.max(...live.map(([, exp]) => exp)) * 1000 - this.now();
    await this.store.set(key, JSON.stringify(live), Math.max(1, until), ctx);
    if (!(await this.revoked(family, ctx))) return true;
    await this.revokeAccess(jti, expiresAt);
    return false;
  }

  /** Revokes the family of a token, if the token is known (RFC 7009 §2.1). */
  async revoke(token: string, clientId: string, ctx?: StoreBudgetHolder): Promise<boolean> {
    const record = await this.record(await digestKey(token), ctx);
    if (record === undefined || record.c !== clientId) return false;
    await this.revokeFamily(record.f, ctx);
    return true;
  }

  private async revoked(family: string, ctx: StoreBudgetHolder | undefined): Promise<boolean> {
    return (await this.store.get(`rtf:${family}`, ctx)) !== undefined;
  }

  private async record(
    digest: string,
    ctx: StoreBudgetHolder | undefined,
  ): Promise<RefreshRecord | undefined> {
    const raw = await this.store.get(`rt:${digest}`, ctx);
    if (raw === undefined) return undefined;
    const record = JSON.parse(raw) as RefreshRecord;
    return record.exp > this.now() ? record : undefined;
  }
}

/** The `[jti, exp]` pairs of a family's list. */
function parseTracked(text: string | undefined): [string, number][] {
  return text === undefined ? [] : (JSON.parse(text) as [string, number][]);
}
