/**
 * A handler's value too deep to write: whatever writes it (the built-in JSON,
 * the writer for values holding a `Date`, the XML serializer), the answer is a logged 500 with
 * the generic message, never the stack overflow's text, and the service goes on answering.
 */
import { describe, expect, it } from 'vitest';
import { conventions, negotiation } from '../../src/index.ts';

const generic = {
  errors: [{ message: 'Something went wrong on our side; it has been logged.', code: 50000 }],
};

/** A value `levels` deep, built without recursion; a `Date` at the bottom when asked. */
function deepValue(levels: number, date: boolean): unknown {
  let value: unknown = date ? { at: new Date(0) } : [];
  for (let i = 1; i < levels; i++) value = [value];
  return value;
}

describe('a handler that returns a value too deep to write', () => {
  const faults: unknown[] = [];
  const api = conventions({
    lint: 'off',
    logger: { error: (obj: { err?: unknown }) => faults.push(obj.err), warn() {} },
    plugins: [negotiation({ formats: ['json', 'xml'] })],
    routes: {
      '/v1/deep-values': {
        GET: (ctx) => ({ deep: deepValue(100_000, ctx.query.has('date')) }),
      },
      '/v1/pings': { GET: () => ({ pong: true }) },
    },
  });
  const get = (url: string, accept = 'application/json') =>
    api.handle({ method: 'GET', url, headers: new Headers({ accept }) });

  it.each([
    ['JSON', '/v1/deep-values', 'application/json'],
    ['JSON with a Date', '/v1/deep-values?date', 'application/json'],
    ['XML', '/v1/deep-values', 'application/xml'],
  ])(
    'answers 100,000 levels as %s with a logged 500 and the generic message',
    async (_, url, accept) => {
      const before = faults.length;
      const res = await get(url, accept);
      expect(res.status).toBe(500);
      expect(res.headers['content-type']).toBe('application/json');
      expect(JSON.parse(res.body as string)).toEqual(generic);
      expect(faults.length).toBe(before + 1);
      expect((await get('/v1/pings')).status).toBe(200);
    },
  );
});
