/**
 * `node bench/fields.mjs`: field selection on a page of 20 bookshelf books, the library's
 * compiled selection (`defineResource(...).select(fields)` then `project`) against json-mask, in
 * one run, µs per page and the ratio. Both must produce the same value, or nothing is timed.
 *
 * A micro-benchmark, not a test (CONTRIBUTING.md rule 19): it measures and prints, never fails
 * on speed. It times the built package (`npm run build` first). Each run times every case for
 * about `--ms` milliseconds in a rotating order; the report gives the median over the runs and
 * their min–max. Pin it to one core on a shared machine: `taskset -c 1 node bench/fields.mjs`.
 *
 * Usage: node bench/fields.mjs [--runs N] [--ms N]
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual, parseArgs } from 'node:util';
import mask from 'json-mask';

// Internal helpers are measured too: the private core bundle (dist/core.mjs) exports them all.
const DIST = fileURLToPath(new URL('../dist/core.mjs', import.meta.url));
if (!existsSync(DIST)) {
  console.error('bench/fields.mjs: dist/core.mjs is missing; run `npm run build` first');
  process.exit(1);
}
const { createList, defineResource, project, readList } = await import(DIST);

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '15' }, ms: { type: 'string', default: '100' } },
});
const runs = Number(values.runs);
const ms = Number(values.ms);
if (!Number.isInteger(runs) || runs < 1 || !(ms > 0)) {
  console.error('usage: node bench/fields.mjs [--runs N] [--ms N]   (N a positive whole number)');
  process.exit(2);
}

// A page of the bookshelf's books as its store holds them (Date values, the embedded author).
const start = Date.UTC(2026, 0, 1);
const books = Array.from({ length: 20 }, (_, i) => ({
  id: `book-${i + 1}`,
  title: `The Book of Conventions, Volume ${i + 1}`,
  authorId: `author-${(i % 7) + 1}`,
  author: { id: `author-${(i % 7) + 1}`, name: `Author ${(i % 7) + 1}` },
  year: 1990 + i,
  language: 'en',
  pages: 200 + i,
  createdAt: new Date(start + i * 3_600_000),
  updatedAt: new Date(start + i * 3_600_000 + 1_800_000),
}));
const page = { books, hasNext: true };

const book = defineResource({
  fields: {
    id: true,
    title: true,
    authorId: true,
    author: { id: true, name: true },
    year: true,
    language: true,
    pages: true,
    createdAt: true,
    updatedAt: true,
  },
});

const selections = {
  'id,title': 'id,title',
  'id,title,author(name)': 'id,title,author(name)',
  'six fields': 'id,title,authorId,year,createdAt,updatedAt',
};

const ours = (fields) => () => ({
  books: project(page.books, book.select(fields, null).fields),
  hasNext: page.hasNext,
});
const theirs = (fields) => {
  const text = `books(${fields}),hasNext`;
  return () => mask(page, text);
};
const theirsCompiled = (fields) => {
  const compiled = mask.compile(`books(${fields}),hasNext`);
  return () => mask.filter(page, compiled);
};

const cases = [];
for (const [name, fields] of Object.entries(selections)) {
  const expected = mask(page, `books(${fields}),hasNext`);
  if (!isDeepStrictEqual(ours(fields)(), expected)) {
    console.error(`bench/fields.mjs: the two selections differ for fields=${fields}`);
    process.exit(1);
  }
  cases.push({ name, impl: 'api-conventions', fn: ours(fields), samples: [] });
  cases.push({ name, impl: 'json-mask', fn: theirs(fields), samples: [] });
  cases.push({ name, impl: 'json-mask (compiled)', fn: theirsCompiled(fields), samples: [] });
}

let sink = 0;
function time(fn) {
  // Warm up, then as many calls as fit in `ms`, in batches to keep the clock out of the loop.
  for (let i = 0; i < 200; i++) sink += fn() ? 1 : 0;
  let calls = 0;
  const begin = process.hrtime.bigint();
  const budget = BigInt(ms) * 1_000_000n;
  let elapsed = 0n;
  while (elapsed < budget) {
    for (let i = 0; i < 100; i++) sink += fn() ? 1 : 0;
    calls += 100;
    elapsed = process.hrtime.bigint() - begin;
  }
  return Number(elapsed) / 1000 / calls;
}

for (let run = 0; run < runs; run++) {
  for (let i = 0; i < cases.length; i++) {
    const c = cases[(i + run) % cases.length];
    c.samples.push(time(c.fn));
  }
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};
const fmt = (n) => n.toFixed(2).padStart(7);
console.log(`field selection on a page of 20 books: µs per page, median of ${runs} runs (min–max)`);
for (const name of Object.keys(selections)) {
  const rows = cases.filter((c) => c.name === name);
  const ourMedian = median(rows[0].samples);
  console.log(`\n  fields=${name}`);
  for (const c of rows) {
    const m = median(c.samples);
    const ratio =
      c.impl === 'api-conventions' ? '' : `   ours is ${(m / ourMedian).toFixed(2)}x as fast`;
    console.log(
      `    ${c.impl.padEnd(22)}${fmt(m)} µs  (${fmt(Math.min(...c.samples))} –${fmt(Math.max(...c.samples))})${ratio}`,
    );
  }
}

// What paging adds to a list request: reading the query (one style, the sort) and making the page
// of the rows a store returned (limit + 1 of them), in each style.
const list = createList({
  name: 'books',
  sort: ['year', 'createdAt'],
  filters: { year: 'integer' },
});
const rows = [...books, { ...books[0], id: 'book-21' }];
const cursor = readList(list, new URLSearchParams('after=&limit=20')).pageOf(rows).neighbours()
  .next.after;
const requests = {
  'no parameters': '',
  'page=2&per_page=20': 'page=2&per_page=20',
  'offset=20&limit=20&sort=-year': 'offset=20&limit=20&sort=-year',
  'after=<cursor>&limit=20': `after=${cursor}&limit=20`,
};
console.log('\npaging a list request: read the query and make the page of 21 rows, µs per request');
for (const [name, query] of Object.entries(requests)) {
  const fn = () => readList(list, new URLSearchParams(query)).pageOf(rows);
  const samples = [];
  for (let run = 0; run < runs; run++) samples.push(time(fn));
  console.log(
    `    ${name.padEnd(32)}${fmt(median(samples))} µs  (${fmt(Math.min(...samples))} –${fmt(Math.max(...samples))})`,
  );
}
if (sink === -1) console.log('');
