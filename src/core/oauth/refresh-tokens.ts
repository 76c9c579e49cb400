/**
 * Refresh tokens in families (RFC 9700 §4.14.2): opaque, 256 random bits after the family's place,
 * kept in the store only as the SHA-256 of the family's current token, rotated on every use;
 * using a spent one revokes its whole family. A family's keys are named by its slot
 * (refresh-families.ts), so one user's sign-ins and refreshes never hold more than a few keys
 * per slot.
 */

import { randomToken } from '../internal/random.ts';
import type { GuardedStore } from '../stores/guard-store.ts';
import type { StoreBudgetHolder } from '../stores/store-budget.ts';
import { oauthError } from './errors.ts';
import {
  type FamilyRef,
  FamilySlots,
  ownerOf,
  type RefreshRecord,
  slotKey,
} from './refresh-families.ts';
import { digestKey } from './secrets.ts';

export type { FamilyRef, RefreshRecord } from './refresh-families.ts';

/** What a new family's record says: its client, user and scope. */
type FamilyGrant = Pick<RefreshRecord, 'c' | 's' | 'sc'>;

const unknown = 'The refresh token is unknown, expired or revoked.';
// A grant rarely holds more than two live access tokens; past this many, the oldest is revoked.
const maxTracked = 64;
// A revoked family's mark needs only outlive a request that rotated it at that moment.
const markMs = 300_000;
// How many spent tokens of a family are known as spent: a replay comes soon after the use.
const maxSpent = 16;
const tokenSyntax = /^([A-Za-z0-9_-]{43})\.(\d{1,4})\.([A-Za-z0-9_-]{22})\.[A-Za-z0-9_-]{43}$/;

/** Revokes an access token by `jti` until `expiresAt` (epoch seconds): the token side's `revoke`. */
type RevokeAccess = (jti: string, expiresAt: number) => Promise<void> | void;

/**
 * The refresh-token families of one server, over its store. Each method takes, last, the request
 * it serves (`ctx`), whose store budget its store calls wait out of.
 */
export class RefreshTokens {
  private readonly slots: FamilySlots;

  constructor(
    private readonly store: GuardedStore,
    private readonly ttlMs: number,
    maxFamilies: number,
    private readonly revokeAccess: RevokeAccess | undefined = undefined,
    private readonly now: () => number = Date.now,
  ) {
    this.slots = new FamilySlots(store, ttlMs, maxFamilies, now);
  }

  /** A new family id (an authorization code gets one when it is issued). */
  newFamily(): string {
    return randomToken(16);
  }

  /** Opens family `f` in a slot of its owner: a free one, else the least recently used one's. */
  async open(grant: FamilyGrant, f: string, ctx?: StoreBudgetHolder): Promise<FamilyRef> {
    const ref = await this.slots.place(await ownerOf(grant.c, grant.s), f, ctx);
    const record: RefreshRecord = { ...grant, f, d: '', exp: this.now() + this.ttlMs };
    await this.store.set(slotKey('rfs', ref), JSON.stringify(record), this.ttlMs, ctx);
    return ref;
  }

  /**
   * Issues the next refresh token of an open family. Answers `invalid_grant` when the family was
   * revoked meanwhile (a replay that raced this grant): the new token is then revoked with it.
   */
  async issue(ref: FamilyRef, grant: FamilyGrant, ctx?: StoreBudgetHolder): Promise<string> {
    const token = `${ref.u}.${ref.i}.${ref.f}.${randomToken()}`;
    const d = await digestKey(token);
    const before = await this.slots.record(ref, ctx);
    const p = before === undefined || before.d === '' ? [] : [...(before.p ?? []), before.d];
    const record: RefreshRecord = {
      ...grant,
      f: ref.f,
      d,
      p: p.slice(-maxSpent),
      exp: this.now() + this.ttlMs,
    };
    await this.store.set(slotKey('rfc', ref), d, this.ttlMs, ctx);
    await this.store.set(slotKey('rfs', ref), JSON.stringify(record), this.ttlMs, ctx);
    await this.slots.touch(ref, ctx);
    // Written, then the mark read; revokeFamily marks, then reads: one of them sees the other.
    if (await this.revoked(ref.f, ctx)) {
      await this.revokeFamily(ref, ctx);
      throw oauthError('invalid_grant', 'The grant was revoked while this request used it.');
    }
    return token;
  }

  /** The live record of a current token, or `undefined`. */
  async find(token: string, ctx?: StoreBudgetHolder): Promise<RefreshRecord | undefined> {
    const ref = refOf(token);
    const record = ref && (await this.slots.record(ref, ctx));
    if (record === undefined || record.d !== (await digestKey(token))) return undefined;
    return (await this.revoked(record.f, ctx)) ? undefined : record;
  }

  /**
   * Uses a refresh token once (RFC 6749 §6). A spent token of a live family revokes the family
   * before anything else is checked (RFC 9700 §4.14.2): a replay with another client or a wider
   * scope revokes it too. A token the family never had is refused and revokes nothing. Then the
   * client and the caller's `check` (the scope), and then the token is taken with one atomic
   * take: of two concurrent uses exactly one wins; the other is a replay and revokes the family,
   * the winner's new token included.
   */
  async use(
    token: string,
    clientId: string,
    check: (record: RefreshRecord) => void,
    ctx?: StoreBudgetHolder,
  ): Promise<{ record: RefreshRecord; ref: FamilyRef }> {
    const ref = refOf(token);
    const record = ref && (await this.slots.record(ref, ctx));
    if (ref === undefined || record === undefined) throw oauthError('invalid_grant', unknown);
    const digest = await digestKey(token);
    if (record.d !== digest) {
      if (record.p?.includes(digest)) await this.revokeFamily(ref, ctx);
      throw oauthError('invalid_grant', unknown);
    }
    // RFC 6749 §10.4: a refresh token is bound to its client; another client learns nothing.
    if (record.c !== clientId) throw oauthError('invalid_grant', unknown);
    check(record);
    if ((await this.store.take(slotKey('rfc', ref), ctx)) !== digest) {
      await this.revokeFamily(ref, ctx);
      throw oauthError('invalid_grant', unknown);
    }
    return { record, ref };
  }

  /**
   * Revokes every token of a family and the access tokens issued from it (when the token side
   * can revoke). A short-lived mark is written before the family is looked for, and
   * {@link RefreshTokens.issue} and {@link RefreshTokens.track} write before they read the mark,
   * so a token issued while the family is being revoked is caught by one of them. `ref.i`, when
   * not known (a replayed code), is looked up.
   */
  async revokeFamily(
    ref: Omit<FamilyRef, 'i'> & { i?: number },
    ctx?: StoreBudgetHolder,
  ): Promise<void> {
    await this.store.set(`rfx:${ref.f}`, '1', markMs, ctx);
    const i = ref.i ?? (await this.slots.locate(ref.u, ref.f, ctx));
    if (i === undefined) return;
    const at = { u: ref.u, i, f: ref.f };
    if ((await this.slots.record(at, ctx)) !== undefined) {
      await this.store.delete(slotKey('rfs', at), ctx);
      await this.store.delete(slotKey('rfc', at), ctx);
      await this.slots.free(at, ctx);
    }
    const tracked = parseTracked(await this.store.get(slotKey('rfa', at), ctx));
    if (tracked.f !== ref.f) return;
    await this.store.delete(slotKey('rfa', at), ctx);
    if (this.revokeAccess === undefined) return;
    const nowSeconds = this.now() / 1000;
    for (const [jti, exp] of tracked.t) if (exp > nowSeconds) await this.revokeAccess(jti, exp);
  }

  /** Revokes the family of the code-issued grant of `clientId` and `subject` (RFC 6749 §4.1.2). */
  async revokeGrant(
    clientId: string,
    subject: string | undefined,
    f: string,
    ctx?: StoreBudgetHolder,
  ): Promise<void> {
    await this.revokeFamily({ u: await ownerOf(clientId, subject), f }, ctx);
  }

  /**
   * Remembers an access token issued from a family, so that revoking the family revokes it
   * (RFC 6749 §4.1.2, RFC 7009 §2.1). Answers `false`, and revokes the token at once, when the
   * family was revoked meanwhile (a replay that raced this grant).
   */
  async track(
    ref: FamilyRef,
    jti: string,
    expiresAt: number,
    ctx?: StoreBudgetHolder,
  ): Promise<boolean> {
    if (this.revokeAccess !== undefined) {
      const nowSeconds = this.now() / 1000;
      const key = slotKey('rfa', ref);
      const held = parseTracked(await this.store.get(key, ctx));
      const live = held.f === ref.f ? held.t.filter(([, exp]) => exp > nowSeconds) : [];
      live.push([jti, expiresAt]);
      // Appends come one at a time: each needs the refresh token the one before it issued.
      for (const [old, exp] of live.splice(0, Math.max(0, live.length - maxTracked))) {
        await this.revokeAccess(old, exp);
      }
      const until = Math.max(...live.map(([, exp]) => exp)) * 1000 - this.now();
      await this.store.set(key, JSON.stringify({ f: ref.f, t: live }), Math.max(1, until), ctx);
    }
    if (!(await this.revoked(ref.f, ctx))) return true;
    await this.revokeFamily(ref, ctx);
    await this.revokeAccess?.(jti, expiresAt);
    return false;
  }

  /**
   * Revokes the family of a token, if it is a token of a live family of this client, current or
   * recently spent (RFC 7009 §2.1).
   */
  async revoke(token: string, clientId: string, ctx?: StoreBudgetHolder): Promise<boolean> {
    const ref = refOf(token);
    const record = ref && (await this.slots.record(ref, ctx));
    if (ref === undefined || record === undefined || record.c !== clientId) return false;
    const digest = await digestKey(token);
    if (record.d !== digest && !record.p?.includes(digest)) return false;
    await this.revokeFamily(ref, ctx);
    return true;
  }

  private async revoked(family: string, ctx: StoreBudgetHolder | undefined): Promise<boolean> {
    return (await this.store.get(`rfx:${family}`, ctx)) !== undefined;
  }
}

/** The family a refresh token names, or `undefined` for anything else. */
function refOf(token: string): FamilyRef | undefined {
  const m = tokenSyntax.exec(token);
  return m === null ? undefined : { u: m[1]!, i: Number(m[2]), f: m[3]! };
}

/** A slot's family and its `[jti, exp]` pairs. */
function parseTracked(text: string | undefined): { f: string; t: [string, number][] } {
  return text === undefined ? { f: '', t: [] } : JSON.parse(text);
}
