/**
 * How the companions the core knows are recognised among a host's handlers: by the name their
 * package gives its middleware function, or by what it leaves on it or on a request it counted.
 * A host hands over what it lists; which package that is, is said here once for every host.
 */
import type { Companion } from './companions.ts';
import { markOf, originalOf } from './marks.ts';

// Middleware the core knows as companions, by their functions' names.
const byName: Readonly<Record<string, Companion>> = {
  secureHeaders: 'hono/secure-headers',
  compress: 'hono/compress',
  compression: 'compression',
};

/**
 * The companion a handler of the app is, through wrappers that keep what they wrap: by its
 * function's name, or express-rate-limit by the `resetKey` and `getKey` it carries.
 *
 * @category Host binding
 */
export function companionOf(handler: unknown): Companion | undefined {
  if (typeof handler !== 'function') return undefined;
  const own = originalOf(handler) as { name?: unknown; resetKey?: unknown; getKey?: unknown };
  if (typeof own.resetKey === 'function' && typeof own.getKey === 'function') {
    return 'express-rate-limit';
  }
  return typeof own.name === 'string' && Object.hasOwn(byName, own.name)
    ? byName[own.name]
    : undefined;
}

/**
 * A handler of the app, as its host lists it in order: middleware, or a handler of one of its
 * routes (`route`); `catches` where it is an error handler (the host tells one its own way).
 *
 * @category Host binding
 */
export interface AppHandler {
  /** The function the host runs. */
  readonly handler?: unknown;
  /** A handler of one of the app's routes, not middleware. */
  readonly route?: boolean | undefined;
  /** An error handler, which runs only for an error. */
  readonly catches?: boolean | undefined;
}

/**
 * For a host whose list of handlers is one ordered stack (Express): how the warnings about what
 * stands where name the conventions' own steps in it (`first`, the step that goes ahead of
 * everything; `errors`, their error handler).
 *
 * @category Host binding
 */
export interface StackPlaces {
  /** The conventions' first step, as the app places it (`c.before`). */
  readonly first: string;
  /** The conventions' error handler, as the app places it (`c.after`). */
  readonly errors: string;
}

/**
 * What the finder tells of what it found: the bound host ({@link BoundHost.companion} names each
 * companion once; its logger takes the other warnings).
 *
 * @category Host binding
 */
export interface FinderHost {
  /** Takes a companion found beside the conventions. */
  companion(name: Companion): void;
  /** Where the warnings about what stands where go. */
  readonly logger: { warn(message: string): void };
}

// passport's `authenticate` middleware, and the cors package's, by their functions' names.
const passportName = 'authenticate';
const corsName = 'corsMiddleware';

/**
 * Finds companions as requests come: among a host's list of handlers, read again only when it
 * grew, and hono-rate-limiter by the store it leaves on a request it counted. With `places`, the
 * list is one ordered stack, and what stands where the conventions cannot see it is named too:
 * the cors package ahead of their first step, an error handler of the app ahead of theirs, and
 * passport, whose refusals are plain text unless it hands them on.
 *
 * @category Host binding
 */
export class CompanionFinder {
  private scanned = 0;
  private limiter = false;
  private passport = false;
  private readonly apps = new WeakSet<object>();

  /** `host` is told each companion and warning; `places` for a host whose handlers are one ordered stack. */
  constructor(
    private readonly host: FinderHost,
    private readonly places?: StackPlaces,
  ) {}

  /**
   * The companions among the handlers of `entries` (a host's route list), read again when it
   * grew, and a rate limiter's `store` that a request carries (hono-rate-limiter's
   * `rateLimitStore`, left on a request it counted).
   */
  seen(entries: readonly AppHandler[] | undefined, store?: unknown): void {
    if (entries !== undefined && entries.length !== this.scanned) {
      this.scanned = entries.length;
      this.read(entries);
    }
    if (this.limiter || typeof (store as { resetKey?: unknown })?.resetKey !== 'function') return;
    this.limiter = true;
    this.host.companion('hono-rate-limiter');
  }

  /**
   * For a host whose stack is read once, at an app's first request: the handlers of `app`
   * (`entries`, called then only).
   */
  seenIn(app: object, entries: () => readonly AppHandler[]): void {
    if (this.apps.has(app)) return;
    this.apps.add(app);
    this.read(entries());
  }

  /**
   * Whether the app has passport's `authenticate()`, whose refusals are still to be watched: then
   * call {@link CompanionFinder.answered} with each response's status and media type.
   */
  get watching(): boolean {
    return this.passport && this.places !== undefined;
  }

  /**
   * passport's `authenticate()` without `failWithError: true` ends a refused request itself, with
   * a plain-text `Unauthorized` and no error body. Its options cannot be read, so the first 401
   * without a JSON body of an app that has passport is named, once, with the option that hands
   * it to the conventions' error handler.
   */
  answered(status: number, contentType: unknown): void {
    if (status !== 401 || !this.watching || /json/.test(String(contentType ?? ''))) return;
    this.passport = false;
    this.host.logger.warn(
      `A 401 left the app without the error body: passport.authenticate() answers a refused request itself unless it is given failWithError: true. Pass { failWithError: true } (and session: false for tokens), and ${this.places!.errors} answers it with the spec's error body and passport's challenge (docs/existing-apps.md).`,
    );
  }

  private read(entries: readonly AppHandler[]): void {
    for (const { handler } of entries) {
      const companion = companionOf(handler);
      if (companion !== undefined) this.host.companion(companion);
      if (originalOf(handler).name === passportName) this.passport = true;
    }
    if (this.places !== undefined) this.placed(entries, this.places);
  }

  /** What stands where it takes over what the conventions answer, named once. */
  private placed(entries: readonly AppHandler[], places: StackPlaces): void {
    const { logger } = this.host;
    const own = (entry: AppHandler) => markOf(entry.handler)?.own === true;
    const first = entries.findIndex((entry) => own(entry) && !entry.catches);
    const errors = entries.findIndex((entry) => own(entry) && entry.catches);
    for (const [at, entry] of entries.entries()) {
      if (entry.route || own(entry)) continue;
      const { name } = originalOf(entry.handler);
      if (at < first && name === corsName) {
        logger.warn(
          `The cors package runs before ${places.first}: it answers CORS preflights itself, before the conventions see them (they are not rate-limited, and list the methods cors() was given rather than each path's own). Remove it and give the origins to the conventions' cors() plugin (docs/existing-apps.md).`,
        );
      }
      if (entry.catches && (errors === -1 || at < errors)) {
        logger.warn(
          `An error handler of the app (${name || 'anonymous'}) runs before ${places.errors}: it answers errors the conventions answer with the spec's error body (malformed JSON, a body over the limit, a refused token) with its own. Put it after app.use(${places.errors}), or have it call next(error) for errors it does not handle itself.`,
        );
      }
    }
  }
}
