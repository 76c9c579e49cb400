/** The logger option: pino's shape, console, checks at start-up, and loggers that fail. */
import { Writable } from 'node:stream';
import Fastify from 'fastify';
import pino from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { consoleLogger, resolveLogger } from '../../src/core/errors/logger.ts';
import { errorToOutgoing, errorToResponse } from '../../src/core/index.ts';
import type { Logger } from '../../src/index.ts';

afterEach(() => {
  vi.restoreAllMocks();
});

/** A real pino logger writing JSON lines into `lines`. */
function pinoInto(lines: Record<string, unknown>[]) {
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n')) if (line) lines.push(JSON.parse(line));
      done();
    },
  });
  return pino({ level: 'warn' }, stream);
}

/** Lets the stream's write callbacks run. */
const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('pino as the logger', () => {
  it('logs a fault with the error under err, message and stack included, plus method and path', async () => {
    const lines: Record<string, unknown>[] = [];
    const logger: Logger = pinoInto(lines);
    const thrown = new Error('database password is hunter2');
    const response = errorToResponse(thrown, logger, { method: 'POST', path: '/v1/books' });
    await flush();
    expect(response.status).toBe(500);
    expect(lines).toHaveLength(1);
    const line = lines[0]!;
    expect(line).toMatchObject({
      level: 50,
      method: 'POST',
      path: '/v1/books',
      msg: 'POST /v1/books failed',
    });
    const err = line.err as Record<string, string>;
    expect(err.type).toBe('Error');
    expect(err.message).toBe('database password is hunter2');
    expect(err.stack).toContain('database password is hunter2');
    expect(err.stack).toMatch(/\n\s+at /);
  });

  it('warns through pino with a string, methods called unbound after resolveLogger', async () => {
    const lines: Record<string, unknown>[] = [];
    const { warn } = resolveLogger(pinoInto(lines));
    warn('route lint: 1 finding');
    await flush();
    expect(lines).toEqual([expect.objectContaining({ level: 40, msg: 'route lint: 1 finding' })]);
  });

  it('takes Fastify’s app.log as it is', async () => {
    const lines: Record<string, unknown>[] = [];
    const app = Fastify({ loggerInstance: pinoInto(lines) });
    const logger: Logger = resolveLogger(app.log);
    errorToOutgoing(new Error('boom'), logger, { method: 'GET', path: '/v1/x' });
    await flush();
    expect(lines[0]).toMatchObject({
      level: 50,
      msg: 'GET /v1/x failed',
      err: { message: 'boom' },
    });
    await app.close();
  });
});

describe('console as the logger', () => {
  it('writes one readable line and the error to console.error', () => {
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {});
    const thrown = new Error('x');
    errorToResponse(thrown, resolveLogger(console), { method: 'GET', path: '/v1/books' });
    expect(spy).toHaveBeenCalledExactlyOnceWith('[api-conventions] GET /v1/books failed', thrown);
  });

  it('is the default: resolveLogger(undefined) writes through console', () => {
    const spy = vi.spyOn(console, 'warn').mockImplementation(() => {});
    resolveLogger(undefined).warn('route lint: x');
    expect(spy).toHaveBeenCalledWith('[api-conventions] route lint: x');
  });

  it('consoleLogger.error writes the summary and the thrown value', () => {
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {});
    const thrown = new Error('x');
    consoleLogger.error({ err: thrown }, 'request failed');
    expect(spy).toHaveBeenCalledWith('[api-conventions] request failed', thrown);
  });
});

describe('resolveLogger', () => {
  const shape =
    'logger must be console, a pino logger, or any object with error(obj, msg) and optionally warn(msg)';

  it.each([
    [
      'console.log',
      console.log,
      'a function (pass the logger object, e.g. `console`, not one of its methods)',
    ],
    ['null', null, 'null'],
    ['a string', 'pino', 'string'],
    ['an object without error', { warn() {} }, 'an object without an `error` function'],
    [
      'an object whose error is not a function',
      { error: true },
      'an object without an `error` function',
    ],
  ])('throws a TypeError that names the expected shape for %s', (_, value, got) => {
    expect(() => resolveLogger(value)).toThrow(new TypeError(`${shape}; got ${got}.`));
  });

  it('throws a TypeError for a warn that is not a function', () => {
    expect(() => resolveLogger({ error() {}, warn: 'loud' })).toThrow(
      new TypeError(
        'logger.warn must be a function warn(msg), or left out to warn through console.warn; got string.',
      ),
    );
  });

  it('warns through console.warn when the logger has no warn', () => {
    const spy = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const error = vi.fn();
    resolveLogger({ error }).warn('route lint: x');
    expect(spy).toHaveBeenCalledWith('[api-conventions] route lint: x');
    expect(error).not.toHaveBeenCalled();
  });

  it('calls the logger’s own methods with the logger as this', () => {
    const seen: unknown[] = [];
    const logger = {
      error(this: unknown) {
        seen.push(this);
      },
      warn(this: unknown) {
        seen.push(this);
      },
    };
    const resolved = resolveLogger(logger);
    const { error, warn } = resolved;
    error({ err: 1 }, 'x');
    warn('y');
    expect(seen).toEqual([logger, logger]);
  });

  it('returns a logger it resolved as it is', () => {
    const resolved = resolveLogger({ error() {} });
    expect(resolveLogger(resolved)).toBe(resolved);
  });
});

describe('a logger that fails', () => {
  const throwing = {
    error() {
      throw new Error('log sink is down');
    },
    warn() {
      throw new Error('log sink is down');
    },
  };

  it('never makes the caller throw', () => {
    const logger = resolveLogger(throwing);
    expect(() => logger.error({ err: new Error('x') }, 'x')).not.toThrow();
    expect(() => logger.warn('x')).not.toThrow();
  });

  it('leaves the error response as it would be with a working logger', () => {
    const where = { method: 'GET', path: '/v1/books' };
    const thrown = new Error('x');
    const expected = errorToResponse(thrown, { error() {} }, where);
    expect(errorToResponse(thrown, throwing, where)).toEqual(expected);
    expect(errorToResponse(thrown, resolveLogger(throwing), where)).toEqual(expected);
  });

  it('leaves no unhandled rejection when an async logger rejects', async () => {
    const rejected = vi.fn();
    process.on('unhandledRejection', rejected);
    try {
      const logger = resolveLogger({ error: async () => Promise.reject(new Error('sink down')) });
      logger.error({ err: new Error('x') }, 'x');
      errorToOutgoing(new Error('x'), { error: () => Promise.reject(new Error('sink down')) });
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(rejected).not.toHaveBeenCalled();
    } finally {
      process.off('unhandledRejection', rejected);
    }
  });
});
