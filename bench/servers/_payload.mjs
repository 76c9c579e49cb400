/**
 * The one response body every bench server returns for `GET /v1/books`.
 *
 * Built once at start-up and deterministic (no clock, no randomness), so every target
 * serializes exactly the same object and the harness can compare each response with it.
 */

const BASE = Date.UTC(2026, 0, 1, 9, 0, 0);
const HOUR = 60 * 60 * 1000;

const books = [];
for (let i = 1; i <= 20; i++) {
  books.push({
    id: `bk_${String(i).padStart(4, '0')}`,
    title: `The Book of Conventions, Volume ${i}`,
    authorId: `au_${String((i % 7) + 1).padStart(4, '0')}`,
    year: 1990 + i,
    // RFC 3339 timestamps, as the conventions ask for; toISOString() yields that form.
    createdAt: new Date(BASE + i * HOUR).toISOString(),
    updatedAt: new Date(BASE + i * HOUR + 30 * 60 * 1000).toISOString(),
  });
}

export const payload = { books, hasNext: true };
