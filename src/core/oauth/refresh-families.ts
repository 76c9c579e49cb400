/**
 * Where refresh-token families live and what their slots hold: each user has at most `max` of
 * them with one client, in numbered slots, so that no user's sign-ins can grow the store without
 * bound (RFC 9700 §4.14.2 families; the bound is this server's).
 */
import type { GuardedStore } from '../stores/guard-store.ts';
import type { StoreBudgetHolder } from '../stores/store-budget.ts';
import { digestKey } from './secrets.ts';

/**
 * A family's place: its owner (`u`, the digest of its client and user), its slot (`i`, below the
 * server's `maxRefreshFamilies`) and its id (`f`, random). A refresh token names all three, so a
 * spent one still finds its family.
 */
export interface FamilyRef {
  readonly u: string;
  readonly i: number;
  readonly f: string;
}

/** What the store keeps of one family: its slot's record. */
export interface RefreshRecord {
  /** The family: every token rotated from one grant. */
  readonly f: string;
  /** The digest of its current refresh token; `''` before the first. */
  readonly d: string;
  /**
   * The digests of its last spent tokens, oldest first (at most 16): a token among them is a
   * replay. A token in neither is one this server never issued (a forgery, a re-spelling), or
   * one spent long ago: refused without revoking, so that knowing a family's place is not
   * enough to end it.
   */
  readonly p?: readonly string[];
  /** The client it was issued to. */
  readonly c: string;
  /** The user, when there is one. */
  readonly s?: string;
  /** The scope the grant holds, space-separated. */
  readonly sc: string;
  /** When its current token expires, epoch milliseconds. */
  readonly exp: number;
}

/** One family in its owner's list: slot, family id, last use and expiry (epoch milliseconds). */
type Entry = [slot: number, family: string, usedAt: number, expiresAt: number];

/** The owner of the families of `subject` (absent for none) with client `clientId`. */
export function ownerOf(clientId: string, subject: string | undefined): Promise<string> {
  return digestKey(JSON.stringify([clientId, subject ?? null]));
}

/**
 * The owners' lists of families, each one key: which slots are taken and when each was last used.
 * A list is read and written, not updated atomically: two sign-ins at the same moment may take
 * one slot (the later one then ends the earlier), but the keys stay bounded whatever the race,
 * because every key of a family is named by its slot.
 */
export class FamilySlots {
  constructor(
    private readonly store: GuardedStore,
    private readonly ttlMs: number,
    private readonly max: number,
    private readonly now: () => number,
  ) {}

  /**
   * Places a new family `f` of owner `u`: in a free slot (an expired or revoked family's), else
   * in the slot of the family used least recently, which ends.
   */
  async place(u: string, f: string, ctx?: StoreBudgetHolder): Promise<FamilyRef> {
    const now = this.now();
    const entries = await this.read(u, now, ctx);
    const taken = new Set(entries.map(([slot]) => slot));
    const free: number[] = [];
    for (let i = 0; i < this.max; i++) if (!taken.has(i)) free.push(i);
    let slot: number;
    if (free.length > 0) {
      // A random free slot: two sign-ins at one moment seldom pick the same one.
      slot = free[Math.floor(Math.random() * free.length)]!;
    } else {
      let oldest = entries[0]!;
      for (const entry of entries) if (entry[2] < oldest[2]) oldest = entry;
      slot = oldest[0];
    }
    await this.write(
      u,
      [...entries.filter(([s]) => s !== slot), [slot, f, now, now + this.ttlMs]],
      ctx,
    );
    return { u, i: slot, f };
  }

  /** Marks a family used now: it is then the last to end. */
  async touch(ref: FamilyRef, ctx?: StoreBudgetHolder): Promise<void> {
    const now = this.now();
    const entries = (await this.read(ref.u, now, ctx)).filter(([s]) => s !== ref.i);
    await this.write(ref.u, [...entries, [ref.i, ref.f, now, now + this.ttlMs]], ctx);
  }

  /** Frees the slot of a revoked family, so that the next sign-in takes it first. */
  async free(ref: FamilyRef, ctx?: StoreBudgetHolder): Promise<void> {
    const entries = await this.read(ref.u, this.now(), ctx);
    const kept = entries.filter(([s, f]) => s !== ref.i || f !== ref.f);
    if (kept.length === entries.length) return;
    if (kept.length === 0) await this.store.delete(`rfi:${ref.u}`, ctx);
    else await this.write(ref.u, kept, ctx);
  }

  /** The live record of the family `ref` names, when that family still holds its slot. */
  async record(ref: FamilyRef, ctx?: StoreBudgetHolder): Promise<RefreshRecord | undefined> {
    const raw = await this.store.get(slotKey('rfs', ref), ctx);
    if (raw === undefined) return undefined;
    const record = JSON.parse(raw) as RefreshRecord;
    return record.f === ref.f && record.exp > this.now() ? record : undefined;
  }

  /** The slot of family `f`: from its owner's list, else (a list that lost a race) by search. */
  async locate(u: string, f: string, ctx?: StoreBudgetHolder): Promise<number | undefined> {
    const listed = (await this.read(u, this.now(), ctx)).find(([, family]) => family === f)?.[0];
    if (listed !== undefined) return listed;
    for (let i = 0; i < this.max; i++) {
      if ((await this.record({ u, i, f }, ctx)) !== undefined) return i;
    }
    return undefined;
  }

  /** The live entries of an owner: expired ones are stale and dropped. */
  private async read(u: string, now: number, ctx?: StoreBudgetHolder): Promise<Entry[]> {
    const text = await this.store.get(`rfi:${u}`, ctx);
    if (text === undefined) return [];
    return (JSON.parse(text) as Entry[]).filter(([s, , , exp]) => exp > now && s < this.max);
  }

  private async write(u: string, entries: Entry[], ctx?: StoreBudgetHolder): Promise<void> {
    await this.store.set(`rfi:${u}`, JSON.stringify(entries), this.ttlMs, ctx);
  }
}

/** A key of a slot: its record (`rfs`), its current token's claim (`rfc`), its access tokens (`rfa`). */
export function slotKey(kind: 'rfs' | 'rfc' | 'rfa', ref: FamilyRef): string {
  return `${kind}:${ref.u}:${ref.i}`;
}
