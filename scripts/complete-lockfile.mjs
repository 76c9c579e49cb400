// Completes package-lock.json with the optional platform packages (biome's and rollup's native
// binaries for other systems) that the npm registry reachable from our machines does not serve.
// npm leaves a package it cannot fetch out of the lockfile, and `npm ci` then refuses the
// lockfile as out of sync. An entry with its `os`/`cpu`/`libc` lets `npm ci` skip the package on
// every platform it does not fit, without fetching it. Run it after each `npm install`
// (`npm run lock`).
import { readFileSync, writeFileSync } from 'node:fs';

const file = process.argv[2] ?? 'package-lock.json';
const lock = JSON.parse(readFileSync(file, 'utf8'));
const packages = lock.packages;
const systems = [
  'aix',
  'android',
  'darwin',
  'freebsd',
  'linux',
  'netbsd',
  'openbsd',
  'openharmony',
  'sunos',
  'win32',
  'windows', // workerd's name for win32
];
// The names some packages give a system or a CPU (@cloudflare/workerd-windows-64,
// @oven/bun-linux-aarch64), as npm's `os` and `cpu` spell them.
const osNames = { windows: 'win32' };
const cpuNames = { 64: 'x64', aarch64: 'arm64' };

let added = 0;
for (const [path, meta] of Object.entries(packages)) {
  for (const [name, version] of Object.entries(meta.optionalDependencies ?? {})) {
    const nested = path === '' ? `node_modules/${name}` : `${path}/node_modules/${name}`;
    if (packages[nested] || packages[`node_modules/${name}`]) continue;
    // Names such as @rollup/rollup-linux-x64-musl or @biomejs/cli-darwin-arm64.
    const parts = name.split('/').at(-1).split('-');
    const at = parts.findIndex((part) => systems.includes(part));
    if (at === -1 || parts[at + 1] === undefined) {
      throw new Error(
        `${name} is missing from ${file} and is not a platform package; run npm install.`,
      );
    }
    const os = osNames[parts[at]] ?? parts[at];
    const cpu = cpuNames[parts[at + 1]] ?? parts[at + 1];
    const entry = { version, cpu: [cpu], dev: meta.dev, optional: true, os: [os] };
    const rest = parts.slice(at + 2);
    if (rest.includes('musl')) entry.libc = ['musl'];
    else if (rest.some((part) => part.startsWith('gnu') || part === 'glibc'))
      entry.libc = ['glibc'];
    packages[`node_modules/${name}`] = entry;
    added++;
  }
}
writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`complete-lockfile: ${added} platform entries added to ${file}`);
