/** The test files that depend on the runtime, run on every Node line. */
export function runtimeSuites(): string[];
/** The runtime suites that also run two at a time in `npm test`. */
export function sharedSuites(): string[];
