/**
 * Work counted, not timed: how many times the library's code blocks ran while a piece of work
 * was done, read from V8's block counters through the inspector (precise coverage with call
 * counts). A loop body counts once per turn, so a parser that rescans its input, or compares
 * every pair of two lists, shows it in the count; nothing in the library is instrumented for it.
 * The counters run only in the test files that measure, from their start: V8 counts the blocks of
 * a function only if it was compiled after the counters started, so such a file starts them
 * before it imports the library, with
 * `await vi.hoisted(() => import('../_work.ts').then((work) => work.startWork()));`.
 */
import { Session } from 'node:inspector/promises';

const session = new Session();
let started: Promise<unknown> | undefined;

/** Starts the block counters for this process (once), before the library's code is compiled. */
export function startWork(): Promise<unknown> {
  started ??= (async () => {
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: true });
  })();
  return started;
}

/**
 * The library's parsers of request input, by file name (docs/limits.md, "What each parser
 * costs"): the files whose blocks a request's parser work counts.
 */
export const requestParsers =
  /\/src\/core\/.*\/(accept|parse-body|parse-form|structure-scan|body-coding|request-head|cookies|cors|csrf|etag|preconditions|http-date|resolve-origin|extract|client-auth|parse-list|list-parameters|list-options|sort-order|select-fields|versioning)\.ts$/;

/** Reads the counters since the last read (reading resets them), summed over the matching files. */
async function take(where: string | RegExp): Promise<number> {
  const { result } = await session.post('Profiler.takePreciseCoverage');
  let total = 0;
  for (const script of result) {
    if (typeof where === 'string' ? !script.url.includes(where) : !where.test(script.url)) continue;
    for (const fn of script.functions) for (const range of fn.ranges) total += range.count;
  }
  return total;
}

/**
 * The executions of the library's code blocks while `work` ran (awaited when it returns a
 * promise), in the source files whose URL contains `where` (all of `src/` by default, or one
 * parser's file such as `negotiation/accept.ts`) or matches it ({@link requestParsers}). Work done meanwhile by anything else in the
 * process (another request) counts too: measure one thing at a time.
 */
export async function workOf(
  work: () => unknown,
  where: string | RegExp = '/src/',
): Promise<number> {
  await startWork();
  await take(where);
  await work();
  return take(where);
}
