#!/usr/bin/env node
/** The `api-conventions` command (package.json "bin"): `api-conventions audit <base-url> …`. */
import { main } from './audit/cli.ts';
import { escapeControls } from './audit/escape.ts';

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
    // A stack may quote the server: each line escaped, the lines kept.
    const text = (error as Error)?.stack ?? String(error);
    process.stderr.write(`api-conventions: ${text.split('\n').map(escapeControls).join('\n')}\n`);
    process.exitCode = 2;
  },
);
