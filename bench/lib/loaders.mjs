/**
 * The load generators: wrk when installed (lighter, so one core of it pushes a server harder),
 * else autocannon in bench/load.mjs. Both send the request headers a target needs, and both
 * can take a file of tokens and send `Authorization: Bearer <next token>` on each request.
 */
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { cpuSeconds, LOAD_CPU, pinned, tail, track } from './processes.mjs';

function hasWrk() {
  const which = spawnSync('which', ['wrk'], { stdio: 'ignore' });
  return !which.error && which.status === 0;
}

/** The generator to use: `wanted`, or wrk when installed, else autocannon. */
export function chooseLoader(wanted, root) {
  const wrk = hasWrk();
  if (wanted === 'wrk' && !wrk) throw new Error('--loader wrk: wrk is not installed');
  if (wanted === 'wrk' || (wanted === undefined && wrk)) {
    const out = spawnSync('wrk', ['--version'], { encoding: 'utf8' });
    const version = /wrk\s+(\S+)/.exec(`${out.stdout}${out.stderr}`)?.[1] ?? 'unknown';
    return { name: 'wrk', version };
  }
  const pkg = JSON.parse(
    readFileSync(path.join(root, 'node_modules/autocannon/package.json'), 'utf8'),
  );
  return { name: 'autocannon', version: pkg.version };
}

/** The command line of one run: `request` is `{ url, headers, tokensFile }`. */
function commandOf(loader, root, pinning, request, seconds, connections) {
  const headers = Object.entries(request.headers).map(([name, value]) => `${name}: ${value}`);
  if (loader.name === 'wrk') {
    return pinned(pinning, LOAD_CPU, 'wrk', [
      '-t1',
      `-c${connections}`,
      `-d${seconds}s`,
      ...headers.flatMap((h) => ['-H', h]),
      '-s',
      path.join(root, 'bench', 'wrk-report.lua'),
      request.url,
    ]);
  }
  return pinned(pinning, LOAD_CPU, process.execPath, [
    path.join(root, 'bench', 'load.mjs'),
    request.url,
    String(seconds),
    String(connections),
    ...headers.flatMap((h) => ['--header', h]),
    ...(request.tokensFile ? ['--tokens', request.tokensFile] : []),
    '--expect',
    String(request.expectStatus ?? 200),
  ]);
}

/**
 * Runs the load generator in its own (pinned) process for `seconds` against the server and
 * resolves with its result plus the share of a core the server used meanwhile, which tells
 * whether the server was the bottleneck (near 100%) or the load generator was.
 */
export function runLoad({ server, seconds, connections, loader, pinning, request, root }) {
  const [command, args] = commandOf(loader, root, pinning, request, seconds, connections);
  // wrk's Lua script reads the token file named here (bench/wrk-report.lua).
  const env = request.tokensFile
    ? { ...process.env, BENCH_TOKENS: request.tokensFile }
    : process.env;
  const child = track(spawn(command, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] }));

  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    // Until the generator says it started, count from the spawn; its own start-up is small.
    let startCpu = cpuSeconds(server.child.pid);
    let startTime = performance.now();
    let started = false;
    // The run is bounded by the generator's own duration; this is the backstop.
    const timer = setTimeout(() => child.kill('SIGKILL'), (seconds + 60) * 1000);
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      if (!started && /^start\s*$/m.test(stdout)) {
        started = true;
        startCpu = cpuSeconds(server.child.pid);
        startTime = performance.now();
      }
    });
    child.stderr.on('data', (chunk) => {
      stderr = (stderr + chunk).slice(-8000);
    });
    child.once('error', (err) => {
      clearTimeout(timer);
      reject(new Error(`load generator could not start: ${err.message}`));
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      const endCpu = cpuSeconds(server.child.pid);
      const wall = (performance.now() - startTime) / 1000;
      const line = /^result (\{.*\})\s*$/m.exec(stdout);
      if (!line) {
        const why = signal ?? `exit code ${code}`;
        reject(new Error(`load generator gave no result (${why})\n${tail(stderr || stdout)}`));
        return;
      }
      const result = JSON.parse(line[1]);
      // Share of one core (pinned, the server cannot have more); null off Linux.
      result.serverCpu = startCpu === null || endCpu === null ? null : (endCpu - startCpu) / wall;
      // Requests per CPU-second of the server: what it costs to answer, whatever share of the
      // core other work left it. Steadier than req/s on a busy machine.
      result.requestsPerCpuSecond = result.serverCpu
        ? result.requestsPerSec / result.serverCpu
        : null;
      resolve(result);
    });
  });
}
