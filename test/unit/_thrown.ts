/** Runs `fn` and returns what it threw; fails the test when it throws nothing. */
export function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}
