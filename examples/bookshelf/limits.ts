/** The bookshelf's rate limit: one policy per caller, `RATE_LIMIT` requests per `RATE_WINDOW` seconds. */
import { type Plugin, rateLimit, type Store } from 'api-conventions';

/** The bookshelf's limit settings; the defaults are the contract's. */
export interface LimitSettings {
  /** Requests per window per identity. @default 1000 */
  limit?: number;
  /** The window in seconds. @default 3600 */
  window?: number;
}

/**
 * The rate-limit plugin of one bookshelf: every request, unknown paths included, counts against
 * its caller's policy, in `store` when given (Redis, shared by every instance), else in memory.
 */
export function limitsPlugin(settings: LimitSettings = {}, store?: Store): Plugin {
  return rateLimit({
    policies: [{ name: 'default', limit: settings.limit ?? 1000, window: settings.window ?? 3600 }],
    ietfHeaders: true,
    ...(store ? { store } : {}),
  });
}
