#!/usr/bin/env node
/** The `api-conventions` command (package.json "bin"): `api-conventions audit <base-url> …`. */
import { main } from './audit/cli.ts';

main(process.argv.slice(2), {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  isTTY: process.stdout.isTTY === true,
  env: process.env,
}).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`api-conventions: ${(error as Error)?.stack ?? String(error)}\n`);
    process.exitCode = 2;
  },
);
