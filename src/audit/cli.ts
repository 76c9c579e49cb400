/** The `api-conventions audit` command: arguments parsed with node:util, exit status 0, 1 or 2. */
import { readFile, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { applyBaseline, hasFailures, parseBaseline, toBaseline } from './baseline.ts';
import { AuditUnreachableError } from './errors.ts';
import { escapeControls } from './escape.ts';
import { formatJson, formatText } from './format.ts';
import { formatGithub, formatJunit, formatSarif } from './format-ci.ts';
import type { AuditOptions } from './options.ts';
import { audit } from './run.ts';

/** Where the command writes, and whether its output is a terminal. */
interface CommandIo {
  out: (text: string) => void;
  err: (text: string) => void;
  isTTY: boolean;
  env: Record<string, string | undefined>;
}

/** The command's usage text. */
const usage = `Usage: api-conventions audit <base-url> [options]

Checks a live API against the conventions (docs/audit.md).

  --path P             a path to audit (repeatable); the base URL's own path is one
  --openapi FILE|URL   an OpenAPI 3 document in JSON: its paths are audited, and it is checked
  --header 'N: v'      a header for every request to the base origin (repeatable)
  --origin URL         send a CORS preflight from this origin
  --client ID:SECRET   client credentials for the token endpoint check
  --allow-writes       send probes with bodies (415, 413, POST -> 201, DELETE -> 204)
  --allow-burst        send requests until the rate limit answers 429
  --only 4.1,7         only the rules under these sections (openapi: the contract)
  --skip 4.7,openapi   leave out the rules under these sections
  --strict             fail on warnings too (preferred rules and the spec's patterns)
  --baseline FILE      fail only on violations not in FILE (written when it is absent)
  --max-requests N     at most N requests (default 500)
  --concurrency N      requests in flight at once (default 4)
  --timeout MS         per-request timeout (default 10000)
  --format FORMAT      text (default), json, junit (JUnit XML), sarif (SARIF 2.1.0)
                       or github (GitHub Actions annotations)
  --all                list passes too (text format)

Exit status: 0 when no check fails (warnings do not, unless --strict; with --baseline, nor
violations in the baseline), 1 when one does, 2 on a usage error, an unreadable document or
baseline, or an unreachable URL.
`;

class UsageError extends Error {}

/** The output formats of `--format`. */
const formats = ['text', 'json', 'junit', 'sarif', 'github'] as const;
type Format = (typeof formats)[number];

function whole(name: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text)) throw new UsageError(`--${name} takes a whole number; got "${text}".`);
  return Number(text);
}

/** A comma-separated list (`4.1,7`). */
function list(text: string | undefined): string[] {
  return (text ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** Turns the command line into audit options (and the output settings). */
function parseCommand(
  argv: readonly string[],
): { options: AuditOptions; format: Format; all: boolean; baseline?: string } | 'help' {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    strict: true,
    options: {
      path: { type: 'string', multiple: true },
      openapi: { type: 'string' },
      header: { type: 'string', multiple: true },
      origin: { type: 'string' },
      client: { type: 'string' },
      'allow-writes': { type: 'boolean' },
      'allow-burst': { type: 'boolean' },
      only: { type: 'string' },
      skip: { type: 'string' },
      strict: { type: 'boolean' },
      baseline: { type: 'string' },
      'max-requests': { type: 'string' },
      concurrency: { type: 'string' },
      timeout: { type: 'string' },
      format: { type: 'string' },
      all: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return 'help';
  const [command, baseUrl, ...extra] = positionals;
  if (command !== 'audit')
    throw new UsageError(command ? `unknown command "${command}".` : 'no command given.');
  if (!baseUrl) throw new UsageError('give the base URL to audit.');
  if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0]}".`);
  const format = (values.format ?? 'text') as Format;
  if (!formats.includes(format)) {
    throw new UsageError(`--format is ${formats.join(', ')}; got "${format}".`);
  }
  const headers: Record<string, string> = {};
  for (const line of values.header ?? []) {
    const at = line.indexOf(':');
    if (at <= 0) throw new UsageError(`--header takes 'Name: value'; got "${line}".`);
    headers[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  let client: AuditOptions['client'];
  if (values.client !== undefined) {
    const at = values.client.indexOf(':');
    if (at <= 0) throw new UsageError(`--client takes ID:SECRET; got "${values.client}".`);
    client = { id: values.client.slice(0, at), secret: values.client.slice(at + 1) };
  }
  const options: AuditOptions = {
    baseUrl,
    paths: values.path ?? [],
    headers,
    allowWrites: values['allow-writes'] ?? false,
    allowBurst: values['allow-burst'] ?? false,
    only: list(values.only),
    skip: list(values.skip),
    strict: values.strict ?? false,
    ...(values.openapi !== undefined ? { openapi: values.openapi } : {}),
    ...(values.origin !== undefined ? { origin: values.origin } : {}),
    ...(client ? { client } : {}),
  };
  const maxRequests = whole('max-requests', values['max-requests']);
  const concurrency = whole('concurrency', values.concurrency);
  const timeoutMs = whole('timeout', values.timeout);
  if (maxRequests !== undefined) options.maxRequests = maxRequests;
  if (concurrency !== undefined) options.concurrency = concurrency;
  if (timeoutMs !== undefined) options.timeoutMs = timeoutMs;
  return {
    options,
    format,
    all: values.all ?? false,
    ...(values.baseline !== undefined ? { baseline: values.baseline } : {}),
  };
}

/** Runs the command; resolves to its exit status. */
export async function main(argv: readonly string[], io: CommandIo): Promise<number> {
  let parsed: ReturnType<typeof parseCommand>;
  try {
    parsed = parseCommand(argv);
  } catch (error) {
    io.err(`api-conventions: ${escapeControls((error as Error).message)}\n\n${usage}`);
    return 2;
  }
  if (parsed === 'help') {
    io.out(usage);
    return 0;
  }
  try {
    let baseline: ReturnType<typeof parseBaseline> | undefined;
    if (parsed.baseline !== undefined) {
      const text = await readFile(parsed.baseline, 'utf8').catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return undefined;
        throw new TypeError(`the baseline ${parsed.baseline} could not be read: ${error.message}`);
      });
      if (text !== undefined) baseline = parseBaseline(text, `the baseline ${parsed.baseline}`);
    }
    let report = await audit(parsed.options);
    if (baseline) report = applyBaseline(report, baseline);
    else if (parsed.baseline !== undefined) {
      // No baseline yet: today's violations become it, and this run fails nothing.
      await writeFile(parsed.baseline, `${JSON.stringify(toBaseline(report), null, 2)}\n`);
      report = applyBaseline(report, toBaseline(report));
      io.err(`api-conventions: wrote the baseline ${parsed.baseline}\n`);
    }
    const color = io.isTTY && !io.env.NO_COLOR;
    const print = {
      text: () => formatText(report, { color, all: parsed.all }),
      json: () => `${formatJson(report)}\n`,
      junit: () => formatJunit(report),
      sarif: () => `${formatSarif(report)}\n`,
      github: () => formatGithub(report),
    };
    io.out(print[parsed.format]());
    return hasFailures(report) ? 1 : 0;
  } catch (error) {
    if (error instanceof TypeError || error instanceof AuditUnreachableError) {
      // A message may quote the server (a document that could not be fetched): escaped.
      io.err(`api-conventions: ${escapeControls(error.message.replace(/^audit\(\): /, ''))}\n`);
      return 2;
    }
    throw error;
  }
}
