/**
 * Callers made from request headers, for tests of what differs per caller: `x-user: name scope…`
 * makes a fresh identity on each request, with the claims of `x-claims: {json}` and the API
 * version of `x-api-version` when given.
 */
import { hasScopes, type LinkRule, type Plugin } from '../../src/index.ts';

export const headerIdentity: Plugin = {
  name: 'test-identity',
  preParsing(ctx) {
    const user = ctx.headers.get('x-user');
    if (user == null) return;
    const [subject, ...scopes] = user.split(' ');
    const claims = JSON.parse(ctx.headers.get('x-claims') ?? '{}') as Record<string, unknown>;
    ctx.identity = { subject, clientId: 'app', scopes: new Set(scopes), via: 'test', claims };
    const version = ctx.headers.get('x-api-version');
    if (version != null) ctx.state.apiVersion = Number(version);
  },
};

/** The `update` link of a book, shown to callers with `books:write`. */
export const updateLink: LinkRule<{ id: string }> = {
  method: 'PUT',
  href: (b) => `/v1/books/${b.id}`,
  when: (ctx) => hasScopes(ctx.identity, 'books:write'),
};
