/**
 * Reading a response body up to a cap: a larger `Content-Length` is refused before a byte is
 * read, and the decoded bytes are counted as they arrive, so a body that says nothing of its
 * length (chunked, or compressed) is dropped once it passes the cap.
 */
import { ClientRefusedError } from './refused.ts';

/** The default of `maxBodySize`: 10 MiB. */
export const defaultMaxBodySize = 10 * 1024 * 1024;

const refuse = (what: string, url: string, cap: number, size: string) =>
  new ClientRefusedError(
    'size',
    url,
    `${what} ${url}: the response body is ${size}, over maxBodySize (${cap} bytes); not read.`,
  );

/** The body of `res` as text, at most `cap` bytes (after any content coding is undone). */
export async function readText(
  res: Response,
  cap: number,
  what: string,
  url: string,
): Promise<string> {
  const declared = res.headers.get('content-length');
  if (declared !== null && /^\d{1,15}$/.test(declared) && Number(declared) > cap) {
    await res.body?.cancel().catch(() => undefined);
    throw refuse(what, url, cap, `${declared} bytes long`);
  }
  if (res.body === null) return '';
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let size = 0;
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > cap) {
      await reader.cancel().catch(() => undefined);
      throw refuse(what, url, cap, `past ${cap} bytes and still coming`);
    }
    text += decoder.decode(value, { stream: true });
  }
  return text + decoder.decode();
}

/** The body of `res` as JSON, at most `cap` bytes; `undefined` when it is not JSON. */
export async function readJson(
  res: Response,
  cap: number,
  what: string,
  url: string,
): Promise<unknown> {
  const text = await readText(res, cap, what, url);
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
