/** The store interface shared by every stateful feature, its in-memory default and its guard. */
export { type GuardedStore, type GuardStoreOptions, guardStore } from './guard-store.ts';
export { MemoryStore, type MemoryStoreOptions } from './memory-store.ts';
export {
  type CounterState,
  type CounterView,
  decideRates,
  slidingKeys,
} from './rate-algorithms.ts';
export type {
  Counter,
  HitWindow,
  RateAlgorithm,
  RateCheck,
  RateVerdict,
  Store,
} from './store.ts';
export type { StoreBudget, StoreBudgetHolder } from './store-budget.ts';
