/** Rate limits (spec 8.3, 8.2): X-RateLimit-* consistent; with --allow-burst, 429 with Retry-After and the error body. */
import type { Exchange } from '../client.ts';
import type { AuditContext, PathAudit } from '../context.ts';
import { budgetSpent } from '../context.ts';
import { errorBodyProblem, excerpt, headerLine } from '../inspect.ts';

const names = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'] as const;

/** The path's GET carries X-RateLimit-* that agree with each other, if it carries any. */
export function checkRateHeaders(audit: PathAudit) {
  const { findings } = audit.ctx;
  const get = audit.get;
  const request = `GET ${audit.path}`;
  if (!get || get.status === 0) return findings.skip('8.3', request, 'no answer to look at');
  const [limit, remaining, reset] = names.map((n) => get.headers.get(n)) as [
    string | null,
    string | null,
    string | null,
  ];
  if (limit === null && remaining === null && reset === null) {
    return findings.skip(
      '8.3',
      get.request,
      'no X-RateLimit-* headers (the spec makes them optional)',
    );
  }
  const evidence = names.map((n) => headerLine(get, n)).join(', ');
  const whole = (v: string | null) => v !== null && /^\d+$/.test(v.trim());
  let problem: string | undefined;
  if (!whole(limit) || !whole(remaining) || !whole(reset))
    problem = 'X-RateLimit-Limit, -Remaining and -Reset must all be whole numbers';
  else if (Number(remaining) > Number(limit))
    problem = `Remaining (${remaining}) is above Limit (${limit})`;
  else {
    // Reset is seconds from now or a Unix time; a Unix time must not be in the past.
    const value = Number(reset);
    const now = Date.now() / 1000;
    if (value > 1e9 && value < now - 60) problem = `Reset ${value} is a time in the past`;
  }
  findings.decide(
    '8.3',
    get.request,
    problem,
    'X-RateLimit-* present and consistent',
    get.status,
    problem ? evidence : undefined,
  );
}

/** With --allow-burst, GETs to `path` until the limit answers 429 (within the budget). */
export async function checkBurst(
  ctx: AuditContext,
  path: string,
  first: Exchange | undefined,
): Promise<void> {
  const { findings, client, options } = ctx;
  const request = `GET ${path} (burst)`;
  if (!options.allowBurst) return findings.skip('8.2', request, 'no --allow-burst');
  const remaining = Number(first?.headers.get('x-ratelimit-remaining'));
  if (Number.isFinite(remaining) && remaining + 1 > client.left) {
    return findings.skip(
      '8.2',
      request,
      `the limit has ${remaining} requests left, beyond the budget of ${client.left}`,
    );
  }
  let limited: Exchange | undefined;
  let sent = 0;
  while (!limited) {
    const wave = await Promise.all(
      Array.from({ length: Math.min(8, client.left) }, () => client.send('GET', path)),
    );
    if (wave.length === 0 || wave.every((ex) => ex === undefined)) break;
    sent += wave.length;
    limited = wave.find((ex) => ex?.status === 429);
  }
  if (!limited)
    return findings.skip('8.2', request, `no 429 after ${sent} requests: ${budgetSpent}`);
  // Spec 8.2: the 429 is required; it "should include error detail" and "may include a
  // Retry-After header".
  const problem = !limited.headers.has('retry-after')
    ? '429 without Retry-After'
    : errorBodyProblem(limited);
  findings.decide(
    '8.2',
    request,
    problem,
    `429 with Retry-After after ${sent} requests`,
    429,
    problem ? excerpt(limited.body) : undefined,
    'pattern',
  );
}
