/** The contract of take (GETDEL) and add (SET NX PX), the two single-use token operations. */
import { describe, expect, it } from 'vitest';
import { checkConcurrentAdds, checkConcurrentTakes } from './_atomicity.ts';
import type { ContractContext } from './contract.ts';

/** Declares the take and add tests. */
export function tokenContract({ store, key, ttl, options }: ContractContext): void {
  describe('take', () => {
    it('returns the value and removes the key', async () => {
      await store().set(key('token'), 'abc', ttl);
      expect(await store().take(key('token'))).toBe('abc');
      expect(await store().get(key('token'))).toBeUndefined();
      expect(await store().take(key('token'))).toBeUndefined();
    });

    it('returns undefined for a key never set', async () => {
      expect(await store().take(key('missing'))).toBeUndefined();
    });

    it('returns undefined for a key that has expired', async () => {
      await store().set(key('token'), 'abc', ttl);
      await options.advance(ttl * 1.5);
      expect(await store().take(key('token'))).toBeUndefined();
    });

    it('keeps the value exactly, the empty string included', async () => {
      await store().set(key('empty'), '');
      expect(await store().take(key('empty'))).toBe('');
      expect(await store().take(key('empty'))).toBeUndefined();
    });

    it('gives the value to exactly one of concurrent takes, so a token is used once', async () => {
      await checkConcurrentTakes(store(), key('token'));
    });

    it('leaves other keys alone', async () => {
      await store().set(key('a'), 'one');
      await store().set(key('b'), 'two');
      await store().take(key('a'));
      expect(await store().get(key('b'))).toBe('two');
    });
  });

  describe('add', () => {
    it('sets an absent key and returns true', async () => {
      expect(await store().add(key('lock'), 'mine', ttl)).toBe(true);
      expect(await store().get(key('lock'))).toBe('mine');
    });

    it('leaves a present key and its expiry alone and returns false', async () => {
      await store().set(key('lock'), 'theirs', ttl);
      await options.advance(ttl / 2);
      expect(await store().add(key('lock'), 'mine', ttl * 10)).toBe(false);
      expect(await store().get(key('lock'))).toBe('theirs');
      await options.advance(ttl);
      expect(await store().get(key('lock'))).toBeUndefined();
    });

    it('expires the key it set after ttl', async () => {
      await store().add(key('lock'), 'mine', ttl);
      await options.advance(ttl / 2);
      expect(await store().get(key('lock'))).toBe('mine');
      await options.advance(ttl);
      expect(await store().get(key('lock'))).toBeUndefined();
    });

    it('sets a key again once it has expired', async () => {
      await store().add(key('lock'), 'first', ttl);
      await options.advance(ttl * 1.5);
      expect(await store().add(key('lock'), 'second', ttl)).toBe(true);
      expect(await store().get(key('lock'))).toBe('second');
    });

    it('sets a key again once it has been taken', async () => {
      await store().add(key('lock'), 'first', ttl);
      expect(await store().take(key('lock'))).toBe('first');
      expect(await store().add(key('lock'), 'second', ttl)).toBe(true);
    });

    it('returns true to exactly one of concurrent adds of one key, and keeps its value', async () => {
      await checkConcurrentAdds(store(), key('lock'), ttl);
    });
  });
}
