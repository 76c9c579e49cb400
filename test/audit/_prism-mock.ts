/**
 * Stoplight Prism's mock server (`prism mock`), run as its users run it: a process of its own
 * serving an OpenAPI document's examples, validating requests against it (422 for a value the
 * schema forbids) and its security (401 without the credentials it declares).
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../_ports.ts';
import { runPrism } from '../conformance/_prism.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** A running mock. */
export interface PrismMock {
  /** Its base URL. */
  readonly url: string;
  /** The document it serves: its servers name the mock, and its paths carry their base path. */
  readonly document: string;
  /** Stops the process. */
  close(): Promise<void>;
}

/** Starts `prism mock` on `document`; resolves once it answers. */
export async function startPrismMock(document: Record<string, unknown>): Promise<PrismMock> {
  mkdirSync(join(root, '.test-tmp'), { recursive: true });
  const dir = mkdtempSync(join(root, '.test-tmp', 'prism-mock-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const file = join(dir, 'openapi.json');
  // Prism serves the paths at its root whatever the servers say: the first server's base path
  // (`https://api.readme.com/v2`) goes into each path, so the mock answers where the API does.
  const servers = document.servers as { url?: string }[] | undefined;
  const base = new URL(servers?.[0]?.url ?? '/', 'http://server.invalid').pathname.replace(
    /\/$/,
    '',
  );
  const paths = Object.fromEntries(
    Object.entries(document.paths as Record<string, unknown>).map(([path, item]) => [
      `${base}${path}`,
      item,
    ]),
  );
  writeFileSync(file, JSON.stringify({ ...document, servers: [{ url }], paths }));
  const prism = await runPrism(
    ['mock', file, '--port', String(port), '--host', '127.0.0.1'],
    url,
    `${url}/api-conventions-ready`,
  );
  return { url, document: file, close: prism.close };
}
