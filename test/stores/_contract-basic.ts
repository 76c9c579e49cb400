/** The contract of get, set and delete. */
import { describe, expect, it } from 'vitest';
import { checkConcurrentDeletes } from './_atomicity.ts';
import type { ContractContext } from './contract.ts';

/** Declares the get, set and delete tests. */
export function basicContract({ store, key, ttl, options }: ContractContext): void {
  describe('get and set', () => {
    it('returns undefined for a key never set', async () => {
      expect(await store().get(key('missing'))).toBeUndefined();
    });

    it('returns the value set', async () => {
      await store().set(key('a'), 'one');
      expect(await store().get(key('a'))).toBe('one');
    });

    it('keeps the value exactly, empty and non-ASCII strings included', async () => {
      await store().set(key('empty'), '');
      await store().set(key('text'), 'café 😀 {"a":1}');
      expect(await store().get(key('empty'))).toBe('');
      expect(await store().get(key('text'))).toBe('café 😀 {"a":1}');
    });

    it('replaces the value of a key set again', async () => {
      await store().set(key('a'), 'one');
      await store().set(key('a'), 'two');
      expect(await store().get(key('a'))).toBe('two');
    });

    it('keeps keys apart', async () => {
      await store().set(key('a'), 'one');
      await store().set(key('b'), 'two');
      expect(await store().get(key('a'))).toBe('one');
      expect(await store().get(key('b'))).toBe('two');
    });

    it('keeps a key until its ttl and drops it after', async () => {
      await store().set(key('a'), 'one', ttl);
      await options.advance(ttl / 2);
      expect(await store().get(key('a'))).toBe('one');
      await options.advance(ttl);
      expect(await store().get(key('a'))).toBeUndefined();
    });

    it('keeps a key without ttl', async () => {
      await store().set(key('a'), 'one');
      await options.advance(ttl * 3);
      expect(await store().get(key('a'))).toBe('one');
    });

    it('drops the expiry of a key set again without ttl', async () => {
      await store().set(key('a'), 'one', ttl);
      await store().set(key('a'), 'two');
      await options.advance(ttl * 1.5);
      expect(await store().get(key('a'))).toBe('two');
    });

    it('gives a key set again with a ttl that ttl', async () => {
      await store().set(key('a'), 'one');
      await store().set(key('a'), 'two', ttl);
      await options.advance(ttl * 1.5);
      expect(await store().get(key('a'))).toBeUndefined();
    });
  });

  describe('delete', () => {
    it('returns true and removes a key that was there', async () => {
      await store().set(key('a'), 'one');
      expect(await store().delete(key('a'))).toBe(true);
      expect(await store().get(key('a'))).toBeUndefined();
    });

    it('returns false for a key that was not there', async () => {
      expect(await store().delete(key('missing'))).toBe(false);
    });

    it('returns false for a key that has expired', async () => {
      await store().set(key('a'), 'one', ttl);
      await options.advance(ttl * 1.5);
      expect(await store().delete(key('a'))).toBe(false);
    });

    it('returns true to only one of concurrent deletes of one key, so one caller consumes a value', async () => {
      await checkConcurrentDeletes(store(), key('code'));
    });

    it('leaves other keys alone', async () => {
      await store().set(key('a'), 'one');
      await store().set(key('b'), 'two');
      await store().delete(key('a'));
      expect(await store().get(key('b'))).toBe('two');
    });
  });
}
