/**
 * Stoplight Prism's validation proxy (`prism proxy`), run as its users run it: a process of its
 * own, in front of a running service, judging every response against the service's OpenAPI
 * document. It forwards each request, and reports what it found in the `sl-violations` header
 * of its answer (its `--errors` off, so the service's answer comes back as it was).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../_ports.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const cli = join(root, 'node_modules', '@stoplight', 'prism-cli', 'dist', 'index.js');

/** One violation Prism reports (prism-http-server's `sl-violations`). */
export interface Violation {
  location: string[];
  severity: string;
  message: string;
  code?: string | number;
}

/** A running proxy. */
export interface Prism {
  /** Its base URL. */
  readonly url: string;
  /** Everything it logged, for a failure message. */
  readonly log: () => string;
  /** Stops the process. */
  close(): Promise<void>;
}

/** Starts `prism proxy` with `document` in front of `upstream`; resolves once it answers. */
export async function startPrism(document: unknown, upstream: string): Promise<Prism> {
  // The scratch directory is gitignored, so a fresh clone has none yet.
  mkdirSync(join(root, '.test-tmp'), { recursive: true });
  const dir = mkdtempSync(join(root, '.test-tmp', 'prism-'));
  const file = join(dir, 'openapi.json');
  writeFileSync(file, JSON.stringify(document));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  // Ready once it answers a request through to the service (it prints "Prism is listening" too).
  return runPrism(
    [
      'proxy',
      file,
      upstream,
      '--port',
      String(port),
      '--host',
      '127.0.0.1',
      '--cors=false',
      '--errors=false',
    ],
    url,
    `${url}/v1/openapi`,
  );
}

/** Runs the Prism command with `args` in a process of its own; resolves once `ready` answers. */
export async function runPrism(args: string[], url: string, ready: string): Promise<Prism> {
  const child: ChildProcess = spawn(process.execPath, [cli, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
  });
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const close = async () => {
    child.kill('SIGTERM');
    await exited;
  };
  for (let attempt = 0; ; attempt++) {
    if (child.exitCode !== null) throw new Error(`prism exited: ${output}`);
    try {
      await fetch(ready, { signal: AbortSignal.timeout(2000) });
      break;
    } catch (error) {
      if (attempt > 300) {
        await close();
        throw new Error(`prism did not start: ${(error as Error).message}\n${output}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return { url, log: () => output, close };
}

/** The violations of one answer of the proxy. */
export function violationsOf(res: Response): Violation[] {
  const header = res.headers.get('sl-violations');
  if (header === null) return [];
  if (header.startsWith('Too many violations!')) {
    return [{ location: ['response'], severity: 'Error', message: header.slice(0, 300) }];
  }
  return JSON.parse(header) as Violation[];
}
