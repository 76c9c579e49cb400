/**
 * The fail-closed cases and their expectation: a request without a token never reaches a handler
 * that is not public, and with a token the handler the host dispatches to answers.
 */
import { describe, expect, it } from 'vitest';
import { type AppSpec, authorization, type Build, type Served, send } from './_fail-closed-apps.ts';

/** Which handler a request reaches on the host, and what else may happen instead. */
export interface Reaches {
  /** The handler the host dispatches the request to; none: 404 or 405 for anyone. */
  readonly handler?: string;
  /** That handler is public (`auth: false`): it answers without a token too. */
  readonly public?: boolean;
  /** What a start-up TypeError must name for a refused set-up to count as fail-closed. */
  readonly refusal?: string;
  /** Headers the request carries besides the token (`Host`, `Accept-Version`, a method override). */
  readonly headers?: Readonly<Record<string, string>>;
}

const is2xx = (status: number) => status >= 200 && status < 300;

/** Builds the app, then sends `target` without a token and with one. */
async function expectFailClosed(build: Build, target: string, reaches: Reaches): Promise<void> {
  let served: Served;
  try {
    served = await build();
  } catch (error) {
    if (reaches.refusal === undefined || !(error instanceof TypeError)) throw error;
    expect(error.message).toContain(reaches.refusal);
    return;
  }
  try {
    const anonymous = await send(served.port, target, undefined, reaches.headers);
    const saw = (answer: typeof anonymous, who: string) =>
      `${target} ${who} answered ${answer.status}; protected handlers that ran: [${served.ran}]; ` +
      `warnings: ${served.warnings.join(' | ') || 'none'}`;
    const without = saw(anonymous, 'without a token');
    // The invariant: no protected handler ran for a caller without credentials.
    expect(served.ran, without).toEqual([]);
    if (reaches.handler === undefined) {
      expect([404, 405], without).toContain(anonymous.status);
    } else if (reaches.public) {
      expect(anonymous.status, without).toBe(200);
      expect(served.ranPublic, without).toEqual([reaches.handler]);
    } else {
      expect(anonymous.status, without).toBe(401);
      expect(anonymous.challenge, without).toMatch(/^Bearer /); // RFC 6750 §3
    }
    const authorised = await send(served.port, target, await authorization(), reaches.headers);
    const withToken = saw(authorised, 'with a token');
    if (reaches.handler === undefined) {
      expect([404, 405], withToken).toContain(authorised.status);
      expect([...served.ran, ...served.ranPublic], withToken).toEqual([]);
    } else {
      expect(is2xx(authorised.status), withToken).toBe(true);
      expect(reaches.public ? served.ranPublic : served.ran, withToken).toContain(reaches.handler);
    }
  } finally {
    await served.close();
  }
}

/** The expected behaviour, in words, for the test's name. */
function expectation(target: string, reaches: Reaches): string {
  const refused = reaches.refusal ? `, or refuses \`${reaches.refusal}\` at start-up` : '';
  if (reaches.handler === undefined) return `answers 404 or 405 to ${target}, token or not`;
  if (reaches.public) return `lets ${target} reach public ${reaches.handler} without a token`;
  return `answers 401 to ${target} without a token${refused}, runs ${reaches.handler} with one`;
}

/** One case of the matrix: `it` named after the expected behaviour and the bypass it closes. */
export function failsClosed(why: string, build: Build, target: string, reaches: Reaches): void {
  it(`${expectation(target, reaches)}: ${why}`, () => expectFailClosed(build, target, reaches));
}

/** `GET /v1/things/:id` (protected) and `GET /v1/things/export` (public), in either order. */
const things = (literalFirst: boolean): AppSpec => {
  const byId = { method: 'GET', path: '/v1/things/:id', name: 'thing' };
  const exported = { method: 'GET', path: '/v1/things/export', name: 'export', public: true };
  return { routes: literalFirst ? [exported, byId] : [byId, exported] };
};

/** A host of the router cases: how to build an app, and how its router differs. */
export interface RouterHost {
  readonly label: string;
  readonly build: (spec: AppSpec) => Build;
  /** Its router prefers a literal path over a parameter, whatever the declaration order. */
  readonly literalFirst?: boolean;
  /** Nest declares routes of its own methods only: the unusual-method cases do not apply. */
  readonly nestMethods?: boolean;
}

/** The cases every router host shares. */
export function routerCases(host: RouterHost): void {
  describe(`${host.label}: the cases every router host shares`, () => {
    failsClosed(
      'a protected route sends the Bearer challenge (RFC 6750 §3)',
      host.build({}),
      'GET /v1/orders',
      { handler: 'orders' },
    );
    failsClosed('a route with auth: false is public', host.build({}), 'GET /v1/status', {
      handler: 'status',
      public: true,
    });
    failsClosed('no route and no middleware serve it', host.build({}), 'GET /v1/nowhere', {});
    // The library prefers a literal path over a parameter; Express and Hono take the first
    // declared, Fastify the literal: whichever the host dispatches decides.
    const literalFirst = host.literalFirst === true;
    failsClosed(
      'GET /v1/things/:id (protected) is declared before GET /v1/things/export (auth: false)',
      host.build(things(false)),
      'GET /v1/things/export',
      literalFirst ? { handler: 'export', public: true } : { handler: 'thing' },
    );
    failsClosed(
      'GET /v1/things/export (auth: false) is declared before GET /v1/things/:id',
      host.build(things(true)),
      'GET /v1/things/export',
      { handler: 'export', public: true },
    );
    if (host.nestMethods !== true) {
      failsClosed(
        "app.all('/v1/any') serves an unusual method",
        host.build({
          routes: [{ method: 'ALL', path: '/v1/any', name: 'any' }],
          methods: ['PROPFIND'],
        }),
        'PROPFIND /v1/any',
        { handler: 'any' },
      );
      failsClosed(
        'a route of an unusual method (PURGE)',
        host.build({
          routes: [{ method: 'PURGE', path: '/v1/cache', name: 'purge' }],
          methods: ['PURGE'],
        }),
        'PURGE /v1/cache',
        { handler: 'purge' },
      );
    }
  });
}
