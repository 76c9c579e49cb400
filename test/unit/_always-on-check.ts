/**
 * Always-on headers (spec 6.1: security headers on every response) on two services answered in
 * turn: each response gets its own service's headers, and never over one it set. Run by
 * response-phases.test.ts in-process (generated fills) and as a script in a child process that
 * cannot compile code (the loop the library falls back to).
 */
import { conventions, ok, type Plugin } from '../../src/index.ts';

const quiet = { error() {}, warn() {} };
const plugin = (name: string, headers: Record<string, string>): Plugin => ({ name, headers });
const routes = {
  '/v1/plain': { GET: () => ({ ok: true }) },
  '/v1/own': { GET: () => ok({}, { 'x-frame-options': 'SAMEORIGIN', 'x-extra': 'mine' }) },
};

/** Throws with what differs; returns how many responses were checked. */
export async function checkAlwaysOn(): Promise<number> {
  const first = conventions({
    lint: 'off',
    logger: quiet,
    routes,
    plugins: [plugin('frames', { 'X-Frame-Options': 'DENY', 'X-Extra': 'first' })],
  });
  const second = conventions({
    lint: 'off',
    logger: quiet,
    routes,
    plugins: [plugin('policy', { 'Referrer-Policy': 'no-referrer' })],
  });
  const cases = [
    [
      first,
      '/v1/plain',
      { 'x-frame-options': 'DENY', 'x-extra': 'first', 'x-content-type-options': 'nosniff' },
    ],
    [
      second,
      '/v1/plain',
      { 'referrer-policy': 'no-referrer', 'x-content-type-options': 'nosniff' },
    ],
    [first, '/v1/own', { 'x-frame-options': 'SAMEORIGIN', 'x-extra': 'mine' }],
    [second, '/v1/own', { 'x-frame-options': 'SAMEORIGIN', 'referrer-policy': 'no-referrer' }],
  ] as const;
  let checked = 0;
  for (let round = 0; round < 3; round++) {
    for (const [api, url, want] of cases) {
      const res = await api.handle({ method: 'GET', url, headers: new Headers() });
      for (const [name, value] of Object.entries(want)) {
        if (res.headers[name] !== value) {
          throw new Error(`${url}: ${name} is ${String(res.headers[name])}, want ${value}`);
        }
      }
      if (api === second && res.headers['x-extra'] !== undefined && url === '/v1/plain') {
        throw new Error('the second service sent the first one’s header');
      }
      if (api === first && res.headers['referrer-policy'] !== undefined) {
        throw new Error('the first service sent the second one’s header');
      }
      checked++;
    }
  }
  return checked;
}

if (process.argv[1]?.endsWith('_always-on-check.ts')) {
  const { compilesCode } = await import('../../src/core/internal/platform.ts');
  const checked = await checkAlwaysOn();
  console.log(`always-on ok: ${checked} responses (compilesCode: ${compilesCode})`);
}
