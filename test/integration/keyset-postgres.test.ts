/**
 * Keyset paging against a real Postgres (PGlite: Postgres compiled to WebAssembly, in process).
 * Rows are inserted and deleted between page requests: offset paging repeats and skips rows,
 * keyset paging visits every row exactly once (spec 4.4: relative positions are inconsistent on
 * frequently updated data).
 */
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createList } from '../../src/core/paging/create-list.ts';
import { readList } from '../../src/core/paging/list-query.ts';
import { keysetSql, type ListQuery } from '../../src/index.ts';

interface Row {
  id: string;
  title: string;
  year: number;
  createdAt: Date;
}

const list = createList({
  name: 'books',
  sort: ['title', 'year', 'createdAt'],
  defaultSort: 'createdAt',
  filters: { year: 'integer' },
  search: ['title'],
  cursorSecret: 'a test secret of thirty-two bytes',
});
const columns = { createdAt: 'created_at' };
const start = Date.UTC(2026, 0, 1);
const at = (hour: number) => new Date(start + hour * 3_600_000).toISOString();

let db: PGlite;

async function reset(): Promise<void> {
  await db.exec('DROP TABLE IF EXISTS books');
  await db.exec(
    'CREATE TABLE books (id text PRIMARY KEY, title text NOT NULL, year int NOT NULL, created_at timestamptz NOT NULL)',
  );
  for (let i = 0; i < 30; i++) {
    await db.query('INSERT INTO books VALUES ($1, $2, $3, $4)', [
      `b${String(i).padStart(2, '0')}`,
      `Title ${String.fromCharCode(97 + (i % 7))}${i}`,
      1900 + (i % 5),
      at(i * 10),
    ]);
  }
}

/** Runs one list request the way a handler would: parse, SQL, rows, page. */
async function fetchPage(query: string) {
  const request: ListQuery = readList(list, new URLSearchParams(query));
  const sql = keysetSql(request, { columns, table: 'books' });
  const { rows } = await db.query<Row>(
    `SELECT id, title, year, created_at AS "createdAt" FROM books WHERE ${sql.where} ORDER BY ${sql.orderBy} LIMIT ${sql.limit} OFFSET ${sql.offset}`,
    sql.params,
  );
  const page = request.pageOf(rows);
  const { next, prev } = page.neighbours();
  // The next request: this one's parameters, the paging ones replaced (as the Link header does).
  const follow = (paging: Record<string, string> | undefined) => {
    if (paging === undefined) return undefined;
    const q = new URLSearchParams(query);
    for (const name of ['page', 'per_page', 'limit', 'offset', 'after', 'before']) q.delete(name);
    for (const [name, value] of Object.entries(paging)) q.set(name, value);
    return q.toString();
  };
  return {
    ids: page.items.map((r) => r.id),
    hasNext: page.hasNext,
    next: follow(next),
    prev: follow(prev),
  };
}

/** Walks from `first`, running `between(n)` after the n-th page. */
async function walk(
  first: string,
  between: (n: number) => Promise<void>,
  rel: 'next' | 'prev' = 'next',
) {
  const seen: string[] = [];
  let query: string | undefined = first;
  for (let n = 0; query !== undefined && n < 50; n++) {
    const page = await fetchPage(query);
    seen.push(...(rel === 'next' ? page.ids : [...page.ids].reverse()));
    await between(n);
    query = page[rel];
  }
  return seen;
}

const ids = async () =>
  (await db.query<{ id: string }>('SELECT id FROM books')).rows.map((r) => r.id);
const repeated = (seen: string[]) => seen.filter((id, i) => seen.indexOf(id) !== i);

beforeAll(async () => {
  db = new PGlite();
  await db.waitReady;
}, 60_000);

afterAll(async () => {
  await db.close();
});

describe('keyset paging on Postgres (spec 4.4)', () => {
  it('offset paging repeats a row when one is inserted before the position', async () => {
    await reset();
    let n = 0;
    const seen = await walk('limit=5', async () => {
      await db.query('INSERT INTO books VALUES ($1, $2, $3, $4)', [
        `new${n++}`,
        'Early',
        1900,
        at(-1 - n),
      ]);
    });
    expect(repeated(seen).length).toBeGreaterThan(0);
  });

  it('offset paging skips a row when one before the position is deleted', async () => {
    await reset();
    const before = await ids();
    const seen = await walk('limit=5', async (n) => {
      await db.query('DELETE FROM books WHERE id = $1', [`b${String(n).padStart(2, '0')}`]);
    });
    const after = new Set(await ids());
    const missed = before.filter((id) => after.has(id) && !seen.includes(id));
    expect(missed.length).toBeGreaterThan(0);
  });

  it.each([
    ['the default order', 'after=&limit=5'],
    ['sort=-year (one direction)', 'after=&limit=4&sort=-year'],
    ['sort=-year,title (mixed directions)', 'after=&limit=6&sort=-year,title'],
  ])(
    'keyset paging visits every row exactly once by %s, whatever is inserted or deleted',
    async (_, first) => {
      await reset();
      const kept = new Set(await ids());
      let n = 0;
      const seen = await walk(first, async (page) => {
        // Rows before and after the position, and a delete of a row not seen yet.
        await db.query('INSERT INTO books VALUES ($1, $2, $3, $4)', [
          `early${n}`,
          'Aardvark',
          1899,
          at(-1 - n),
        ]);
        await db.query('INSERT INTO books VALUES ($1, $2, $3, $4)', [
          `late${n}`,
          'Zebra',
          1905,
          at(1000 + n),
        ]);
        n++;
        const victim = `b${String(29 - page).padStart(2, '0')}`;
        kept.delete(victim);
        await db.query('DELETE FROM books WHERE id = $1', [victim]);
      });
      expect(repeated(seen)).toEqual([]);
      for (const id of kept) expect(seen).toContain(id);
    },
  );

  it('walks backwards with before, in the same order', async () => {
    await reset();
    const forward = await walk('after=&limit=7&sort=-year,title', async () => {});
    const last = await fetchPage(`after=${forward[27]}&limit=7&sort=-year,title`);
    expect(last.ids).toEqual(forward.slice(28));
    const backward = await walk(
      `after=${forward[27]}&limit=7&sort=-year,title`,
      async () => {},
      'prev',
    );
    expect(backward).toEqual([...forward].reverse());
  });

  it('continues after a plain last-seen id under any sort, reading its values from the table', async () => {
    await reset();
    const first = await fetchPage('per_page=5&sort=title');
    const second = await fetchPage('page=2&per_page=5&sort=title');
    const after = await fetchPage(`after=${first.ids.at(-1)}&per_page=5&sort=title`);
    expect(after.ids).toEqual(second.ids);
  });

  it('filters and searches in SQL as the array helper does', async () => {
    await reset();
    const { rows } = await db.query<Row>(
      'SELECT id, title, year, created_at AS "createdAt" FROM books ORDER BY created_at',
    );
    for (const query of [
      'year=1902&limit=100',
      'q=E2&limit=100',
      'q=%25&limit=100',
      'q=_&limit=100',
    ]) {
      const expected = readList(list, new URLSearchParams(query))
        .pageArray(rows)
        .items.map((r) => r.id);
      expect((await fetchPage(query)).ids).toEqual(expected);
    }
  });
});
