/** The framework-neutral core: pure functions and plain data, no Node or framework imports. */
export * from './async/index.ts';
export * from './caching/index.ts';
export * from './errors/index.ts';
export * from './http/index.ts';
export { assertKnownKeys } from './internal/options.ts';
export * from './limits/index.ts';
export * from './lint/index.ts';
export * from './negotiation/index.ts';
export * from './oauth/index.ts';
export * from './origin/index.ts';
export * from './paging/index.ts';
export * from './paths/index.ts';
export * from './pipeline/index.ts';
export * from './routing/index.ts';
export * from './security/index.ts';
export * from './stores/index.ts';
export * from './tokens/index.ts';
export * from './validation/index.ts';
