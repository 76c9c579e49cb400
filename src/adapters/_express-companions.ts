/**
 * What an existing Express app already has beside the conventions (docs/existing-apps.md, "What
 * you already have"): companions in a place where they take over what the conventions answer are
 * named once, at the app's first request, with what to change.
 */
import type { Logger } from 'api-conventions';
import { type Companion, companionOf, originalOf } from 'api-conventions/host';
import { appRouter, type Layer } from './_express-routes.ts';

const checked = new WeakSet<object>();
/** Apps with passport's `authenticate` middleware, until its own 401 has been named once. */
const passportApps = new WeakSet<object>();

/**
 * Reads the app's stack once: the `cors` package ahead of `before` answers preflights itself, an
 * error handler of the app ahead of the conventions' own answers their errors with its body, and
 * the companions the core knows (a rate limiter, compression), on the app or on a route, are
 * handed to `found`.
 */
export function checkCompanions(
  app: object,
  before: unknown,
  errorHandler: unknown,
  logger: Required<Logger>,
  found: (companion: Companion) => void,
): void {
  if (checked.has(app)) return;
  checked.add(app);
  const stack: readonly Layer[] = appRouter(app)?.stack ?? [];
  const at = stack.findIndex((layer) => layer.handle === before);
  const end = stack.findIndex((layer) => layer.handle === errorHandler);
  for (const [index, layer] of stack.entries()) {
    const handle = layer.handle;
    for (const handler of layer.route?.stack ?? [layer]) {
      const companion = companionOf(handler.handle);
      if (companion !== undefined) found(companion);
      if (originalOf(handler.handle).name === 'authenticate') passportApps.add(app);
    }
    if (handle === undefined || layer.route !== undefined) continue;
    if (index < at && handle.name === 'corsMiddleware') {
      logger.warn(
        "The cors package runs before c.before: it answers CORS preflights itself, before the conventions see them (they are not rate-limited, and list the methods cors() was given rather than each path's own). Remove it and give the origins to the conventions' cors() plugin (docs/existing-apps.md).",
      );
    }
    if (handle.length === 4 && handle !== errorHandler && (end === -1 || index < end)) {
      logger.warn(
        `An error handler of the app (${handle.name || 'anonymous'}) runs before c.after: it answers errors the conventions answer with the spec's error body (malformed JSON, a body over the limit, a refused token) with its own. Put it after app.use(c.after), or have it call next(error) for errors it does not handle itself.`,
      );
    }
  }
}

/**
 * passport's `authenticate()` without `failWithError: true` ends a refused request itself, with a
 * plain-text `Unauthorized` and no error body. Its options cannot be read, so the first such answer
 * of an app that has passport is named, once, with the option that hands it to `c.after`.
 */
export function watchPassport(
  app: object,
  res: {
    once(event: 'finish', listener: () => void): unknown;
    statusCode: number;
    getHeader(name: string): unknown;
  },
  logger: Required<Logger>,
): void {
  if (!passportApps.has(app)) return;
  res.once('finish', () => {
    if (res.statusCode !== 401 || !passportApps.has(app)) return;
    if (/json/.test(String(res.getHeader('content-type') ?? ''))) return;
    passportApps.delete(app);
    logger.warn(
      "A 401 left the app without the error body: passport.authenticate() answers a refused request itself unless it is given failWithError: true. Pass { failWithError: true } (and session: false for tokens), and c.after answers it with the spec's error body and passport's challenge (docs/existing-apps.md).",
    );
  });
}
