import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ErrorCode } from '../../src/index.ts';

const doc = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8');
const rows = new Map(
  [...doc.matchAll(/^\| (\d{5}) \| (\d{3}) \| `(\w+)` \|/gm)].map((m) => [
    m[3],
    { code: Number(m[1]), status: Number(m[2]) },
  ]),
);

describe('docs/errors.md', () => {
  it.each(Object.entries(ErrorCode))('lists %s with its code and status', (name, code) => {
    expect(rows.get(name)).toEqual({ code, status: Math.floor(code / 100) });
  });

  it('lists no code the catalogue lacks', () => {
    expect([...rows.keys()].sort()).toEqual(Object.keys(ErrorCode).sort());
  });
});
