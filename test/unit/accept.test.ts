/**
 * `Accept` read in bounded work (docs/negotiation.md, "Cost"): the answers negotiator gives, at
 * most 4,096 characters and 64 media ranges, at most 16 vendor types offered back.
 */
import fc from 'fast-check';
import Negotiator from 'negotiator';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../src/core/errors/api-error.ts';
import {
  chooseType,
  maxAcceptLength,
  maxMediaRanges,
  parseAccept,
} from '../../src/core/negotiation/accept.ts';
import { Offer } from '../../src/core/negotiation/index.ts';
import { workOf } from '../_work.ts';

await vi.hoisted(() => import('../_work.ts').then((work) => work.startWork()));

// The parser's work in V8 block executions (test/_work.ts): 3.6 to 7 per character of a header
// (the most for runs of empty elements and parameters), one per offered type compared with a
// range. The bounds leave room for the engine, none for a rescan or a comparison past the caps.
const perCharacter = 8;
const perPair = 2;
const accept = 'negotiation/accept.ts';

const vendorTypes = (vendor: string, count: number, from = 0) =>
  Array.from({ length: count }, (_, i) => `application/vnd.${vendor}.${from + i}+json`);

/** The ApiError `run` throws, or a failure when it throws none. */
function thrown(run: () => unknown): ApiError {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('nothing was thrown');
}

describe('parseAccept and chooseType (RFC 9110 §12.5.1)', () => {
  const types = [
    'application/json',
    'application/xml',
    'text/xml',
    'application/vnd.acme.book+json',
    'application/vnd.acme.book+xml',
    'text/html',
  ];
  const range = fc.oneof(
    fc.constantFrom(
      ...types,
      'Application/JSON',
      'application/*',
      'text/*',
      '*/*',
      '*',
      '*/json',
      'image/png',
      'a/b/c',
      '',
      ' ',
      'x',
    ),
    fc.string({ unit: 'binary-ascii', maxLength: 12 }),
  );
  const parameter = fc.oneof(
    fc.constantFrom(
      ';q=0',
      ';q=0.5',
      ';q=1',
      ';q=0.001',
      ';q=abc',
      ';q=',
      ';q="0.3"',
      ' ; q = 0.2 ',
      ';level=1',
      ';charset=*',
      ';charset=',
      ';a="x,y"',
      ';a="x\\"y"',
      ';a="open',
      ';;',
      ';flag',
      ';q=0.5;q=0.9',
      ';charset=utf-8;charset=*',
    ),
    fc.string({ unit: 'binary-ascii', maxLength: 8 }).map((s) => `;${s}`),
  );
  const element = fc
    .tuple(range, fc.array(parameter, { maxLength: 3 }))
    .map(([r, ps]) => r + ps.join(''));
  const header = fc
    .tuple(fc.array(element, { maxLength: 8 }), fc.constantFrom(',', ', ', ' ,', ',,'))
    .map(([elements, comma]) => elements.join(comma));
  const offered = fc.uniqueArray(fc.constantFrom(...types), { minLength: 1, maxLength: 6 });

  it('chooses what negotiator chooses, for any header and offer', () => {
    fc.assert(
      fc.property(header, offered, (accept, offer) => {
        const expected = new Negotiator({ headers: { accept } }).mediaType(offer);
        const at = chooseType(offer, parseAccept(accept));
        expect(at < 0 ? undefined : offer[at]).toBe(expected);
      }),
      { numRuns: 3000 },
    );
  });

  it('does work linear in the header: its characters, and the pairs compared', async () => {
    await fc.assert(
      fc.asyncProperty(header, offered, async (value, offer) => {
        let count = 0;
        const work = await workOf(() => {
          count = parseAccept(value).length;
          chooseType(offer, parseAccept(value));
        }, accept);
        const bound = 2 * (perCharacter * value.length + 32) + perPair * offer.length * count;
        expect(work).toBeLessThanOrEqual(bound);
      }),
    );
  });

  it('does twice the work for a header twice as long, no more (linear, not a rescan)', async () => {
    const ranges = (n: number) =>
      Array.from({ length: n }, (_, i) => `text/x-${i};q=0.${i % 10};a="b\\"c"`).join(', ');
    const once = await workOf(() => parseAccept(ranges(32)), accept);
    const twice = await workOf(() => parseAccept(ranges(64)), accept);
    expect(twice).toBeLessThanOrEqual(2.2 * once);
    expect(twice).toBeGreaterThanOrEqual(1.8 * once);
  });

  it('answers 431 (43102) past 64 media ranges, empty list elements not counted', () => {
    const ranges = Array.from({ length: maxMediaRanges }, () => 'a/b');
    expect(parseAccept(`${ranges.join(', ')},,, ,`)).toHaveLength(maxMediaRanges);
    const error = thrown(() => parseAccept([...ranges, 'a/b'].join(',')));
    expect(error.status).toBe(431);
    expect(error.code).toBe(43102);
  });
});

describe('Offer: bounded negotiation (docs/negotiation.md)', () => {
  it('answers 431 (43101) to 1,700 vendor types without reading them (regression: quadratic Accept)', async () => {
    const offer = new Offer(['json'], undefined, 8);
    const value = vendorTypes('x', 1700).join(', ');
    let error: ApiError | undefined;
    const work = await workOf(() => {
      error = thrown(() => offer.negotiate(value));
    }, accept);
    expect(error?.status).toBe(431);
    expect(error?.code).toBe(43101);
    // The refusal's own few blocks; not one range read.
    expect(work).toBeLessThan(10);
    expect(offer.cached).toBe(0);
  });

  it('negotiates a value of 4,096 characters and refuses one more', () => {
    const offer = new Offer(['json'], undefined, 8);
    const padded = `application/json;a=${'b'.repeat(maxAcceptLength - 19)}`;
    expect(padded).toHaveLength(maxAcceptLength);
    expect(() => offer.negotiate(padded)).not.toThrow();
    expect(thrown(() => offer.negotiate(`${padded}b`)).code).toBe(43101);
  });

  it('offers the first 16 distinct vendor types back, and compares at most 19 offers with 64 ranges', async () => {
    // The route declares all 44 names: the bound, not the declaration, stops the 17th.
    const names = Array.from({ length: 44 }, (_, i) => String(i));
    const offer = new Offer(['json', 'xml'], 'acme', 8, [], names);
    // Each later type weighs more: the 20th would win if every one were offered.
    const ranges = vendorTypes('acme', 20).map((t, i) => `${t};q=0.${String(i + 10)}`);
    const value = [...ranges, ...ranges, ...vendorTypes('acme', 24, 20)].join(',');
    expect(value.length).toBeLessThanOrEqual(maxAcceptLength);
    let chosen: string | undefined;
    const work = await workOf(() => {
      chosen = offer.negotiate(value)?.type;
    }, accept);
    expect(chosen).toBe('application/vnd.acme.15+json');
    // Comparing all 44 declared types with the 64 ranges would take 2,816 pairs more.
    expect(work).toBeLessThanOrEqual(perCharacter * value.length + perPair * (16 + 3) * 64);
    expect(work).toBeLessThan(perCharacter * value.length + 44 * 64);
  });

  it('keeps the answers of the common values free of any parsing', async () => {
    const offer = new Offer(['json'], undefined, 8);
    offer.negotiate('application/xml, application/json;q=0.5');
    const work = await workOf(() => {
      for (const value of [undefined, null, '*/*', 'application/json']) offer.negotiate(value);
      offer.negotiate('application/xml, application/json;q=0.5');
    }, accept);
    expect(work).toBe(0);
  });
});
