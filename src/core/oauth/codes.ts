/** One-time authorization codes bound to client, redirect URI and PKCE challenge (RFC 6749 §4.1, RFC 7636). */

import { toBase64Url } from '../internal/base64url.ts';
import { randomToken } from '../internal/random.ts';
import type { GuardedStore } from '../stores/guard-store.ts';
import type { StoreBudgetHolder } from '../stores/store-budget.ts';
import { oauthError } from './errors.ts';
import { digestKey, sha256, timingSafeEqual } from './secrets.ts';

/** What the store keeps of one code. */
interface CodeRecord {
  /** The client it was issued to. */
  readonly c: string;
  /** The redirect URI it was sent to. */
  readonly r: string;
  /** Whether the authorization request named the redirect URI (then the token request must too). */
  readonly rg: boolean;
  /** The PKCE S256 challenge. */
  readonly ch: string;
  /** The user who authorized it. */
  readonly s: string;
  /** The granted scope, space-separated. */
  readonly sc: string;
  /** The refresh-token family the code starts, so a replayed code can revoke it. */
  readonly f: string;
}

// RFC 7636 §4.1: code-verifier = 43*128unreserved
const verifierSyntax = /^[A-Za-z0-9._~-]{43,128}$/;
const unusable =
  'The authorization code is unknown, expired, used or was issued for another request.';

/**
 * The authorization codes of one server, over its store. Each method takes, last, the request it
 * serves (`ctx`), whose store budget its store calls wait out of.
 */
export class AuthorizationCodes {
  constructor(
    private readonly store: GuardedStore,
    private readonly ttlMs: number,
  ) {}

  /** Stores a new code and returns it. */
  async issue(record: Omit<CodeRecord, 'f'>, ctx?: StoreBudgetHolder): Promise<string> {
    const code = randomToken();
    const full: CodeRecord = { ...record, f: randomToken(16) };
    await this.store.set(`code:${await digestKey(code)}`, JSON.stringify(full), this.ttlMs, ctx);
    return code;
  }

  /**
   * Redeems a code once (RFC 6749 §4.1.3): bound to the client, the redirect URI and the PKCE
   * verifier (RFC 7636 §4.6). A code used twice revokes what the first use issued
   * (RFC 6749 §4.1.2): `onReplay` gets the code's record, whose family to revoke. A used code is
   * remembered for a code's lifetime, while a client racing an attacker for it can still come:
   * long enough for that, and short enough that sign-ins never pile state up in the store.
   */
  async redeem(
    code: string,
    clientId: string,
    redirectUri: string | undefined,
    verifier: string | undefined,
    onReplay: (record: CodeRecord) => Promise<void>,
    ctx?: StoreBudgetHolder,
  ): Promise<CodeRecord> {
    const digest = await digestKey(code);
    const peek = await this.store.get(`code:${digest}`, ctx);
    if (peek === undefined) {
      const used = await this.store.get(`codeu:${digest}`, ctx);
      if (used !== undefined) await onReplay(JSON.parse(used) as CodeRecord);
      throw oauthError('invalid_grant', unusable);
    }
    const record = JSON.parse(peek) as CodeRecord;
    if (record.c !== clientId) throw oauthError('invalid_grant', unusable);
    // Marked used before it is taken: a second use that loses the take still finds the mark.
    await this.store.set(`codeu:${digest}`, peek, this.ttlMs, ctx);
    if ((await this.store.take(`code:${digest}`, ctx)) === undefined) {
      await onReplay(record);
      throw oauthError('invalid_grant', unusable);
    }
    if (
      record.rg ? redirectUri !== record.r : redirectUri !== undefined && redirectUri !== record.r
    ) {
      throw oauthError('invalid_grant', unusable);
    }
    if (verifier === undefined) {
      throw oauthError(
        'invalid_request',
        'The parameter code_verifier is required (PKCE, RFC 7636).',
      );
    }
    if (!verifierSyntax.test(verifier)) {
      throw oauthError(
        'invalid_grant',
        'The code_verifier must be 43 to 128 unreserved characters.',
      );
    }
    const computed = new TextEncoder().encode(toBase64Url(await sha256(verifier)));
    if (!timingSafeEqual(computed, new TextEncoder().encode(record.ch))) {
      throw oauthError('invalid_grant', 'The code_verifier does not match the code_challenge.');
    }
    return record;
  }
}
