/** Loads an OpenAPI 3 document in JSON from a file or an http(s) URL. */
import { readFile } from 'node:fs/promises';
import type { AuditClient } from '../client.ts';
import { AuditUnreachableError } from '../errors.ts';
import type { OpenApiDocument } from './ref.ts';

/** Reads the document; a URL on the base origin gets the caller's headers, any other none. */
export async function loadOpenApi(
  source: string,
  client: AuditClient,
  timeoutMs: number,
): Promise<OpenApiDocument> {
  let text: string;
  if (/^https?:\/\//i.test(source)) {
    const url = new URL(source);
    // The URL as given, sent as that URL: its path is never resolved again as a reference.
    const ex = client.isOwn(url)
      ? await client.send('GET', url)
      : await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) })
          .then(async (res) => ({ status: res.status, body: await res.text() }))
          .catch((error: Error) => ({ status: 0, body: String(error) }));
    if (ex?.status !== 200) {
      throw new AuditUnreachableError(
        `the OpenAPI document at ${source} could not be fetched (${ex ? ex.status || ex.body : 'no request budget'}).`,
      );
    }
    text = ex.body;
  } else {
    try {
      text = await readFile(source, 'utf8');
    } catch (error) {
      throw new TypeError(
        `the OpenAPI document ${source} could not be read: ${(error as Error).message}`,
      );
    }
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    throw new TypeError(
      `the OpenAPI document ${source} is not JSON; convert a YAML document to JSON first.`,
    );
  }
  if (
    typeof doc !== 'object' ||
    doc === null ||
    typeof (doc as OpenApiDocument).paths !== 'object'
  ) {
    throw new TypeError(`the OpenAPI document ${source} has no "paths" object.`);
  }
  return doc as OpenApiDocument;
}
