/** Turns the outgoing response into bytes-ready plain data: JSON by default (spec 1, 4.6). */
import type { ApiResponse, OutgoingResponse } from '../http/response.ts';
import { utf8Length } from '../http/response.ts';

// RFC 9110 §5.5: a field value never holds CR, LF or NUL; one that does would split the response.
const forbidden = /[\r\n\0]/;

// RFC 9110 §5.1, §5.6.2: a field name is a token.
const token = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

function assertHeader(name: string, value: string | string[]): void {
  if (!token.test(name)) throw new TypeError(`"${name}" is not a valid response header name.`);
  const bad =
    typeof value === 'string' ? forbidden.test(value) : value.some((v) => forbidden.test(v));
  if (bad) throw new TypeError(`The response header "${name}" holds a line break or NUL.`);
}

/**
 * Serializes an outgoing response. A string or byte body whose Content-Type a plugin has set is
 * sent as it is; bytes without one go as `application/octet-stream`; any other value, strings
 * included, becomes JSON with `Content-Type: application/json`.
 * Every response carries `X-Content-Type-Options: nosniff` (spec 4.8). 204 and 304 never carry a
 * body; HEAD gets the headers of GET, with `Content-Length`, and no body (RFC 9110 §9.3.2).
 */
export function serialize(out: OutgoingResponse, head: boolean): ApiResponse {
  const headers = out.headers;
  for (const name in headers) assertHeader(name, headers[name]!);
  headers['x-content-type-options'] = 'nosniff';
  let body: string | Uint8Array | null = null;
  if (out.body !== undefined && out.status !== 204 && out.status !== 304) {
    if (
      headers['content-type'] !== undefined &&
      (typeof out.body === 'string' || out.body instanceof Uint8Array)
    ) {
      body = out.body;
    } else if (out.body instanceof Uint8Array) {
      body = out.body;
      headers['content-type'] = 'application/octet-stream';
    } else {
      body = JSON.stringify(out.body);
      headers['content-type'] ??= 'application/json';
    }
  }
  if (head && body !== null) {
    headers['content-length'] = String(
      typeof body === 'string' ? utf8Length(body) : body.byteLength,
    );
    body = null;
  }
  return { status: out.status, headers, body };
}
