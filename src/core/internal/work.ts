/**
 * The work the request parsers do, counted for the tests of their bounds ([Request limits](../../../docs/limits.md), "What
 * each parser costs"). Internal: nothing outside `src/core` reads it and the package root never
 * exports it.
 */

/**
 * Units of parser work since the process started: one per character a request parser scans and
 * one per pair of elements it compares (an offered type with a media range, a tag with the
 * current one). Each parser adds its count once per call, so the common requests, which parse
 * nothing, cost nothing more. A test reads it before and after a request.
 *
 * @internal
 */
export const parserWork = { units: 0 };
