import { accessChecks, conventions, created, type Identity, type Plugin } from 'api-conventions';
import { describe, expect, it } from 'vitest';
import { describeMatrix } from './_matrix.ts';
import { ownApi } from './_security.ts';

/** Who calls: `x-user: alice` (a test stand-in for a verified bearer token). */
const identify: Plugin = {
  name: 'identify',
  onRequest(ctx) {
    const user = ctx.headers.get('x-user');
    if (user) ctx.identity = { subject: user, scopes: new Set(), via: 'test' } satisfies Identity;
  },
};

interface Note {
  id: string;
  ownerId: string;
  text: string;
  role?: string;
}

function notesApi(warnings: string[]) {
  const notes = new Map<string, Note>([
    ['n1', { id: 'n1', ownerId: 'alice', text: 'alice’s note' }],
    ['n2', { id: 'n2', ownerId: 'bob', text: 'bob’s note' }],
  ]);
  const owns = (ctx: { param(name: string): string; identity?: Identity | undefined }) =>
    notes.get(ctx.param('id'))?.ownerId === ctx.identity?.subject;
  return conventions({
    logger: { error() {}, warn: (message) => warnings.push(message) },
    routes: {
      '/v1/notes': {
        GET: {
          handler: () => ({ notes: [...notes.values()], hasNext: false }),
          config: { authorize: 'public' },
        },
        POST: {
          handler: (ctx) => {
            const note = {
              id: `n${notes.size + 1}`,
              ownerId: ctx.identity!.subject!,
              text: '',
              ...(ctx.body as object),
            } as Note;
            notes.set(note.id, note);
            return created(`/v1/notes/${note.id}`, note);
          },
          config: { authorize: (ctx) => ctx.identity !== undefined, writable: ['text'] },
        },
      },
      '/v1/notes/:id': {
        GET: { handler: (ctx) => notes.get(ctx.param('id')), config: { authorize: owns } },
        PATCH: {
          handler: (ctx) => Object.assign(notes.get(ctx.param('id'))!, ctx.body),
          config: { authorize: async (ctx) => owns(ctx), hideForbidden: true, writable: ['text'] },
        },
      },
      '/v1/unchecked': { GET: () => ({ open: 'by mistake' }) },
    },
    plugins: [identify, accessChecks({})],
  });
}

const as = (user: string, init: RequestInit = {}): RequestInit => ({
  ...init,
  headers: { 'x-user': user, 'content-type': 'application/json', ...(init.headers as object) },
});

describeMatrix(
  'access checks on every route',
  () => notesApi([]),
  (served) => {
    it('lets the owner read and change their note (spec 4.8)', async () => {
      expect((await served.fetch('/v1/notes/n1', as('alice'))).status).toBe(200);
      const res = await served.fetch(
        '/v1/notes/n1',
        as('alice', { method: 'PATCH', body: '{"text":"edited"}' }),
      );
      expect(res.status).toBe(200);
      expect((await res.json()).text).toBe('edited');
    });

    it('answers 403 when the check refuses an identified caller (spec 5.8)', async () => {
      const res = await served.fetch('/v1/notes/n2', as('alice'));
      expect(res.status).toBe(403);
      expect((await res.json()).errors[0].code).toBe(40300);
    });

    it('answers 401 when the check refuses a caller with no identity (spec 5.8)', async () => {
      const res = await served.fetch('/v1/notes/n2');
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
    });

    it('answers 404 instead of 403 where the route hides existence, like a missing note', async () => {
      const hidden = await served.fetch(
        '/v1/notes/n2',
        as('alice', { method: 'PATCH', body: '{"text":"x"}' }),
      );
      expect(hidden.status).toBe(404);
      expect(await hidden.json()).toEqual({
        errors: [{ message: 'Nothing found at /v1/notes/n2.', code: 40400 }],
      });
      const missing = await served.fetch(
        '/v1/notes/n9',
        as('alice', { method: 'PATCH', body: '{"text":"x"}' }),
      );
      expect(missing.status).toBe(404);
    });

    it('checks before reading the body: a refused PATCH with a broken body is still 404', async () => {
      const res = await served.fetch(
        '/v1/notes/n2',
        as('alice', { method: 'PATCH', body: '{"text":' }),
      );
      expect(res.status).toBe(404);
    });

    it.each([
      ['role', '{"text":"x","role":"admin"}'],
      ['ownerId', '{"text":"x","ownerId":"alice"}'],
      ['__proto__', '{"text":"x","__proto__":{"role":"admin"}}'],
      ['constructor', '{"text":"x","constructor":{"prototype":{"role":"admin"}}}'],
    ])(
      'refuses a tampered field %s with 400 naming it, and the data keeps its owner',
      async (field, body) => {
        const res = await served.fetch('/v1/notes/n1', as('alice', { method: 'PATCH', body }));
        expect(res.status).toBe(400);
        const { errors } = await res.json();
        expect(errors[0].code).toBe(40030);
        expect(errors[0].message).toContain(`"${field}"`);
        const note = await (await served.fetch('/v1/notes/n1', as('alice'))).json();
        expect(note.ownerId).toBe('alice');
        expect(note.role).toBeUndefined();
        expect(({} as { role?: string }).role).toBeUndefined();
      },
    );

    it('keeps writable fields on create: ownerId comes from the caller, never the body', async () => {
      const tampered = await served.fetch(
        '/v1/notes',
        as('bob', { method: 'POST', body: '{"text":"x","ownerId":"alice"}' }),
      );
      expect(tampered.status).toBe(400);
      const made = await served.fetch(
        '/v1/notes',
        as('bob', { method: 'POST', body: '{"text":"mine"}' }),
      );
      expect(made.status).toBe(201);
      expect((await made.json()).ownerId).toBe('bob');
    });

    it('lets a public route be read by anyone', async () => {
      expect((await served.fetch('/v1/notes')).status).toBe(200);
    });
  },
  ownApi,
);

describe('accessChecks() at start-up', () => {
  it('warns about each route without an access check, once per route (spec 4.8)', () => {
    const warnings: string[] = [];
    notesApi(warnings);
    expect(warnings).toEqual([
      'Route "GET /v1/unchecked" has no access check (spec 4.8): add authorize: (ctx) => …, or authorize: \'public\' for an open route.',
    ]);
  });

  it('throws for a route without a check when asked to', () => {
    expect(() =>
      conventions({
        routes: { '/v1/x': { GET: () => ({}) } },
        plugins: [accessChecks({ unchecked: 'throw' })],
      }),
    ).toThrow(/Route "GET \/v1\/x" has no access check/);
  });

  it.each([
    [{ authorize: true }, /authorize must be a function/],
    [{ authorize: 'public', writable: 'text' }, /writable must be a list/],
    [{ authorize: 'public', writable: ['__proto__'] }, /cannot list __proto__/],
    [{ authorize: 'public', hideForbidden: 'yes' }, /hideForbidden must be true or false/],
  ])('refuses route settings %j with a TypeError', (config, message) => {
    expect(() =>
      conventions({
        routes: { '/v1/x': { POST: { handler: () => ({}), config: config as never } } },
        plugins: [accessChecks()],
      }),
    ).toThrow(message);
  });

  it('refuses the settings when the plugin is missing (a misspelt or unread setting)', () => {
    expect(() =>
      conventions({
        routes: { '/v1/x': { GET: { handler: () => ({}), config: { authorize: 'public' } } } },
      }),
    ).toThrow(TypeError);
  });
});
