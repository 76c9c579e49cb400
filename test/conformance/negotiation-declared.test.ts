/**
 * Negotiation answers only what the service declares: every GET of the
 * bookshelf's OpenAPI document, asked with `Accept` set to each media type the document names
 * and a few it does not, answers in a type the document lists for that operation and status;
 * a type the document lists for the operation's success is answered in exactly that type
 * (RFC 9110 §12.5.1, §15.5.7; OpenAPI 3.1 §4.8.17).
 */
import { expect, it } from 'vitest';
import { createBookshelf } from '../../examples/bookshelf/app.ts';
import { appRoutes } from '../../examples/bookshelf/app-routes.ts';
import { describeMatrix } from './_matrix.ts';

type Json = Record<string, unknown>;

// A value for each path parameter, by the path's first segments.
const ids: Record<string, string> = {
  '/v1/books/{id}': 'emma',
  '/v1/authors/{id}': 'jane-austen',
  '/v2/authors/{id}': 'jane-austen',
};
// Types no route declares: a made-up name, a name of another route, another vendor, a version
// nobody serves.
const undeclared = [
  'application/vnd.bookshelf.zzz+json',
  'application/vnd.bookshelf.book.zzz+json',
  'application/vnd.bookshelf.books+json',
  'application/vnd.other+json',
  'application/vnd.bookshelf.v9+json',
];

// Hono's own handlers return a finished Response (c.json): its media type is chosen, and the
// serialize phase that would label it never runs (docs/adapters.md); JSON is listed all the same.
const finishedByHono = new Set(appRoutes.map((r) => r.path));

/** The media types of `status` (or `default`) in an operation's responses. */
function typesOf(document: Json, op: Json, status: number): string[] | undefined {
  const responses = op.responses as Record<string, Json>;
  let response = responses[String(status)] ?? responses.default;
  const ref = response?.$ref as string | undefined;
  if (ref !== undefined) {
    const name = ref.split('/').pop()!;
    response = ((document.components as Json).responses as Record<string, Json>)[name]!;
  }
  return response === undefined ? undefined : Object.keys((response.content as Json) ?? {});
}

describeMatrix(
  'negotiation answers only what the document declares',
  () => createBookshelf({ logger: { error() {}, warn() {} } }),
  (served) => {
    it('answers every GET of the document, for every type it names and five it does not, in a type the document lists (RFC 9110 §12.5.1, OpenAPI 3.1 §4.8.17)', async () => {
      const document = (await (await served.fetch('/v1/openapi')).json()) as Json;
      const paths = document.paths as Record<string, Record<string, Json>>;
      const named = new Set<string>();
      for (const ops of Object.values(paths)) {
        for (const op of Object.values(ops)) {
          for (const response of Object.values((op.responses as Record<string, Json>) ?? {})) {
            for (const type of Object.keys((response.content as Json) ?? {})) named.add(type);
          }
        }
      }
      for (const response of Object.values(
        (document.components as Json).responses as Record<string, Json>,
      )) {
        for (const type of Object.keys((response.content as Json) ?? {})) named.add(type);
      }
      expect(named.size).toBeGreaterThan(1);
      const problems: string[] = [];
      let asked = 0;
      for (const [template, ops] of Object.entries(paths)) {
        const op = ops.get;
        if (op === undefined) continue;
        const path = template.replace('{id}', ids[template] ?? 'nothing-here');
        for (const accept of [...named, ...undeclared]) {
          const res = await served.fetch(path, { headers: { accept } });
          asked++;
          const got = res.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase();
          await res.arrayBuffer();
          if (got === undefined) continue;
          const listed = typesOf(document, op, res.status);
          const where = `GET ${path} Accept: ${accept} → ${res.status} ${got}`;
          if (listed === undefined || !listed.includes(got)) {
            problems.push(`${where}, the document lists ${listed?.join(', ') ?? 'nothing'}`);
          } else if (
            res.status === 200 &&
            !(served.adapter === 'fetch' && finishedByHono.has(path)) &&
            typesOf(document, op, 200)?.includes(accept) &&
            got !== accept
          ) {
            problems.push(`${where}: the document lists ${accept} for 200, which was not served`);
          }
        }
      }
      expect(asked).toBeGreaterThan(100);
      expect(problems).toEqual([]);
    }, 120_000);
  },
);
