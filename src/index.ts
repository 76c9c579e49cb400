/**
 * api-conventions: Web API conventions for any Node service. This entry point is the
 * framework-neutral core; adapters live in `api-conventions/node` and its siblings.
 *
 * @packageDocumentation
 * @module api-conventions
 */
export * from './core/index.ts';
