/**
 * The Spectral ruleset, run by the real Spectral engine
 * (@stoplight/spectral-core): the bookshelf's documents lint clean, and each violation planted
 * in a document is found by its rule, with the severity of its strength (required → error,
 * preferred → warn, pattern → info).
 */
import { readFileSync } from 'node:fs';
import { type ISpectralDiagnostic, Spectral } from '@stoplight/spectral-core';
import { conventions, pathShape } from 'api-conventions/spectral';
import { describe, expect, it } from 'vitest';
import { createBookshelf } from '../../examples/bookshelf/app.ts';
import { bookshelfDocument } from '../../examples/bookshelf/openapi.ts';

const lint = async (document: unknown): Promise<ISpectralDiagnostic[]> => {
  const spectral = new Spectral();
  spectral.setRuleset(conventions);
  return spectral.run(JSON.stringify(document));
};

// Spectral's DiagnosticSeverity.
const severities = ['error', 'warn', 'info', 'hint'];
const shown = (results: ISpectralDiagnostic[]) =>
  results.map((r) => `${r.code} ${severities[r.severity]} ${r.path.join('/')}: ${r.message}`);

describe('the bookshelf', () => {
  it('lints clean: its generated document (GET /v1/openapi)', async () => {
    expect(shown(await lint(bookshelfDocument(createBookshelf())))).toEqual([]);
  });

  it('lints clean: the document its audit tests use', async () => {
    const document = JSON.parse(
      readFileSync(new URL('../audit/bookshelf.openapi.json', import.meta.url), 'utf8'),
    );
    expect(shown(await lint(document))).toEqual([]);
  });
});

const jsonOf = (schema: unknown) => ({ content: { 'application/json': { schema } } });
const list = (name: string, extra: Record<string, unknown> = {}) =>
  jsonOf({
    type: 'object',
    properties: { [name]: { type: 'array', items: { type: 'object' } }, ...extra },
  });
const get = (response: unknown, parameters: unknown[] = []) => ({
  get: { parameters, responses: { '200': { description: 'ok', ...(response as object) } } },
});
const query = (name: string) => ({ name, in: 'query', schema: { type: 'integer' } });

/** A document with one planted violation per path, each named by the rule that must find it. */
const planted = {
  openapi: '3.1.0',
  info: { title: 'planted', version: '1' },
  paths: {
    '/v1/Books': get(list('books', { hasNext: { type: 'boolean' } })),
    '/v1/book_lists': get(list('books', { hasNext: { type: 'boolean' } })),
    '/v1/order/{id}': {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
      ...get(jsonOf({ type: 'object' })),
    },
    '/v1/index.php': get(jsonOf({ type: 'object' })),
    '/v1/my notes': get(jsonOf({ type: 'object' })),
    '/books': get(list('books', { hasNext: { type: 'boolean' } })),
    '/v1/items': get(jsonOf({ type: 'array', items: { type: 'object' } }), [query('_page')]),
    '/v1/orders': get(list('orders', { total: { type: 'integer' } }), [query('limit')]),
    '/v1/events': get(list('events', { has_more: { type: 'boolean' } }), [query('limit')]),
    '/v1/notes': {
      get: {
        responses: {
          '200': { description: 'ok', ...jsonOf({ type: 'object' }) },
          '404': {
            description: 'missing',
            ...jsonOf({ type: 'object', properties: { message: { type: 'string' } } }),
          },
        },
      },
    },
    '/v1/feeds': get({ content: { 'text/json': { schema: { type: 'object' } } } }),
    '/v1/logins': get(
      jsonOf({
        type: 'object',
        properties: { createdAt: { type: 'integer' }, id: { type: 'string' } },
      }),
    ),
  },
  security: [{ key: [] }],
  components: { securitySchemes: { key: { type: 'apiKey', in: 'header', name: 'X-API-Key' } } },
};

describe('planted violations', () => {
  const expected: [code: string, severity: string, at: string][] = [
    ['api-conventions-path-lower-case', 'error', 'paths//v1/Books'],
    ['api-conventions-path-hyphens', 'error', 'paths//v1/book_lists'],
    ['api-conventions-path-plural', 'error', 'paths//v1/order/{id}'],
    ['api-conventions-path-no-extension', 'error', 'paths//v1/index.php'],
    ['api-conventions-path-no-encoding', 'error', 'paths//v1/my notes'],
    ['api-conventions-version-in-path', 'warn', 'paths//books'],
    ['api-conventions-paging-parameters', 'error', 'paths//v1/items/get/parameters/0/name'],
    [
      'api-conventions-list-envelope',
      'error',
      'paths//v1/items/get/responses/200/content/application/json/schema',
    ],
    [
      'api-conventions-paged-list-flag',
      'error',
      'paths//v1/orders/get/responses/200/content/application/json/schema',
    ],
    [
      'api-conventions-has-next',
      'info',
      'paths//v1/events/get/responses/200/content/application/json/schema',
    ],
    [
      'api-conventions-error-body',
      'info',
      'paths//v1/notes/get/responses/404/content/application/json/schema',
    ],
    ['api-conventions-media-type', 'error', 'paths//v1/feeds/get/responses/200/content'],
    ['api-conventions-oauth2', 'error', 'components/securitySchemes/key'],
    [
      'api-conventions-date-format',
      'error',
      'paths//v1/logins/get/responses/200/content/application/json/schema',
    ],
  ];

  it.each(expected)('finds %s (%s) at %s', async (code, severity, at) => {
    const results = await lint(planted);
    expect(shown(results)).toContainEqual(
      expect.stringMatching(
        new RegExp(`^${code} ${severity} ${at.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:`),
      ),
    );
  });

  it('finds nothing else: one result per planted violation', async () => {
    const results = await lint(planted);
    expect(results.map((r) => r.code).sort()).toEqual(expected.map(([code]) => code).sort());
  });
});

describe('extending the ruleset', () => {
  it('grades, turns off and reuses its rules by name, as docs/audit.md shows', async () => {
    const spectral = new Spectral();
    spectral.setRuleset({
      extends: [conventions],
      rules: {
        'team-version-in-path': {
          message: '{{error}}',
          severity: 'error',
          given: '$.paths[*]~',
          // biome-ignore lint/suspicious/noThenProperty: Spectral's rules name what they run `then`
          then: { function: pathShape, functionOptions: { section: '9.1' } },
        },
        'api-conventions-version-in-path': 'off',
        'api-conventions-error-body': 'off',
      },
    });
    const codes = (await spectral.run(JSON.stringify(planted))).map(
      (r) => `${r.code} ${severities[r.severity]}`,
    );
    expect(codes).toContain('team-version-in-path error');
    expect(codes).toContain('api-conventions-path-lower-case error');
    expect(
      codes.filter((c) => /version-in-path|error-body/.test(c) && !c.startsWith('team')),
    ).toEqual([]);
  });
});
