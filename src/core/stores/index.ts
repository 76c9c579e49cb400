/** The store interface shared by every stateful feature, and its in-memory default. */
export { MemoryStore, type MemoryStoreOptions } from './memory-store.ts';
export type { Counter, Store } from './store.ts';
