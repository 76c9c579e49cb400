import { describe, expect, it } from 'vitest';
import { Router } from '../../src/core/index.ts';
import type { Handler, RouteTable } from '../../src/index.ts';

const listBooks: Handler = () => ({ books: [], hasNext: false });
const createBook: Handler = () => ({});
const titleRule = { title: { type: 'string', required: true } } as const;

/** Builds a router from a table TypeScript would refuse, as plain JavaScript can pass it. */
const build =
  (table: unknown, configKeys: readonly string[] = []) =>
  () =>
    new Router(table as RouteTable, configKeys);

describe('Route-table mistakes fail at start-up', () => {
  it('a forgotten import (a method whose handler is undefined) is a TypeError, not a misleading 405', () => {
    const forgotten = undefined as unknown as Handler;
    expect(build({ '/v1/books': { GET: forgotten, POST: createBook } })).toThrow(
      new TypeError(
        'Route "GET /v1/books": the handler is undefined; check that it is imported and defined before the route table, or remove the GET key.',
      ),
    );
  });

  it('a setting beside handler instead of inside config (body) is a TypeError suggesting config.body', () => {
    expect(build({ '/v1/books': { POST: { handler: createBook, body: titleRule } } })).toThrow(
      new TypeError(
        'Route "POST /v1/books": unknown key `body`; did you mean `config.body`? Route settings go inside `config`: { handler, config: { body } }.',
      ),
    );
  });

  it('a plugin’s setting beside handler is a TypeError suggesting config.<key>', () => {
    expect(build({ '/v1/books': { GET: { handler: listBooks, audit: true } } }, ['audit'])).toThrow(
      'unknown key `audit`; did you mean `config.audit`?',
    );
  });

  it.each([
    ['handle', 'did you mean `handler`?'],
    ['conifg', 'did you mean `config`?'],
    ['scopes', 'a route definition has only `handler` and `config`.'],
  ])('an unknown key %s in a route definition is a TypeError: %s', (key, hint) => {
    expect(build({ '/v1/books': { GET: { handler: listBooks, [key]: {} } } })).toThrow(
      new TypeError(`Route "GET /v1/books": unknown key \`${key}\`; ${hint}`),
    );
  });

  it.each(['GET', 'HEAD', 'DELETE', 'OPTIONS'])(
    'body rules on a %s route, which are never read, are a TypeError',
    (method) => {
      expect(
        build({
          '/v1/books/:id': { [method]: { handler: listBooks, config: { body: titleRule } } },
        }),
      ).toThrow(
        new TypeError(
          `Route "${method} /v1/books/:id" config: \`body\` rules are never read on ${method} requests; move them to the POST, PUT or PATCH route, or check the query in the handler.`,
        ),
      );
    },
  );

  it.each(['POST', 'PUT', 'PATCH'])('body rules on a %s route are accepted', (method) => {
    const r = new Router({
      '/v1/books': { [method]: { handler: createBook, config: { body: titleRule } } },
    });
    expect(r.find(method, '/v1/books').route?.config.body).toEqual(titleRule);
  });

  it.each([
    ['a function', listBooks],
    ['null', null],
    ['undefined', undefined],
    ['an array', [listBooks]],
    ['a string', 'listBooks'],
  ])('a path’s methods given as %s are a TypeError', (kind, methods) => {
    expect(build({ '/v1/books': methods })).toThrow(
      new TypeError(
        `Route "/v1/books" must map methods to handlers, such as { GET: listBooks }; got ${kind}.`,
      ),
    );
  });

  it('a path with no methods is a TypeError, not a 405 with an empty Allow', () => {
    expect(build({ '/v1/books': {} })).toThrow(
      new TypeError(
        'Route "/v1/books" declares no methods; add one such as { GET: listBooks }, or remove the path.',
      ),
    );
  });

  it.each([
    ['a string', 'bodyLimit'],
    ['an array', ['bodyLimit']],
  ])('a route config given as %s is a TypeError', (kind, config) => {
    expect(build({ '/v1/books': { GET: { handler: listBooks, config } } })).toThrow(
      new TypeError(
        `Route "GET /v1/books": \`config\` must be an object of route settings, such as { bodyLimit: 65536 }; got ${kind}.`,
      ),
    );
  });

  it.each([
    ['null', null],
    ['an array', []],
    ['a function', listBooks],
  ])('a route table given as %s is a TypeError', (kind, table) => {
    expect(build(table)).toThrow(
      new TypeError(
        `The route table must map path patterns to methods, such as { '/v1/books': { GET: listBooks } }; got ${kind}.`,
      ),
    );
  });
});
