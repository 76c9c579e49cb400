/**
 * `--micro`: the micro-benchmarks beside the harness, run one after the other on the load
 * generator's core. A micro-benchmark is any bench/*.mjs that is not part of the harness
 * (run, load, profile, and revalidate, a load run of its own) or any bench/micro/*.mjs: each prints its own table and never fails on
 * speed. Capability issues add theirs there (field selection, rate-limit stores, token verify
 * and issue); nothing here needs to change when one is added.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { LOAD_CPU, pinned, track } from './processes.mjs';

// The harness itself, and revalidate.mjs: a load run of its own that `npm run bench` runs after.
const HARNESS = new Set(['run.mjs', 'load.mjs', 'profile.mjs', 'revalidate.mjs']);

/** Every micro-benchmark file, relative to the repository, in name order. */
export function microBenchmarks(root) {
  const bench = path.join(root, 'bench');
  const top = readdirSync(bench)
    .filter((name) => name.endsWith('.mjs') && !HARNESS.has(name))
    .map((name) => path.join('bench', name));
  const dir = path.join(bench, 'micro');
  const nested = existsSync(dir)
    ? readdirSync(dir)
        .filter((name) => name.endsWith('.mjs') && !name.startsWith('_'))
        .map((name) => path.join('bench', 'micro', name))
    : [];
  return [...top, ...nested].sort();
}

/** Runs each micro-benchmark (or those whose file name holds one of `only`); resolves to failures. */
export async function runMicro(root, pinning, only, extraArgs) {
  const files = microBenchmarks(root).filter(
    (file) => only.length === 0 || only.some((name) => path.basename(file).includes(name)),
  );
  if (files.length === 0) {
    console.log('no micro-benchmark found in bench/ or bench/micro/');
    return 0;
  }
  let failures = 0;
  for (const file of files) {
    console.log(`\n== ${file}`);
    const [command, args] = pinned(pinning, LOAD_CPU, process.execPath, [file, ...extraArgs]);
    const child = track(
      spawn(command, args, { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] }),
    );
    const code = await new Promise((resolve) => child.once('exit', (c, s) => resolve(s ?? c)));
    if (code !== 0) {
      failures++;
      console.error(`${file} exited with ${code}`);
    }
  }
  return failures;
}
