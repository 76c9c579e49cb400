/** Rate limits (spec section 8): policies, identities, the limiter and its plugin. */
export { clientNetwork, defaultIdentity, type RateIdentity } from './identity.ts';
export {
  createRateLimiter,
  type PolicySet,
  RateLimiter,
  type RateLimitOptions,
  type RateLimitResult,
} from './limiter.ts';
export type { RatePolicy } from './policy.ts';
export { type RateLimitPlugin, rateLimit } from './rate-limit.ts';
