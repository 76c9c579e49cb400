/**
 * `api-conventions/host`: what a host needs to serve the conventions on a framework of its own.
 *
 * @module api-conventions/host
 */
export {};
