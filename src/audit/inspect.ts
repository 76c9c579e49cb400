/** Reading responses: media types, JSON bodies, the spec's error body, excerpts for evidence. */
import type { Exchange } from './client.ts';

/** The media type of a response, lower-case and without parameters ('' when absent). */
export function mediaType(ex: Exchange): string {
  return (ex.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
}

/** Whether a media type is JSON (`application/json` or a `+json` type). */
export function isJsonType(type: string): boolean {
  return type === 'application/json' || /^application\/[\w.+-]+\+json$/.test(type);
}

const unparsed = Symbol('unparsed');

/** The body parsed as JSON, or `unparsed` when it is empty or not JSON. */
export function jsonOf(ex: Exchange): unknown {
  if (ex.body.trim() === '') return unparsed;
  try {
    return JSON.parse(ex.body);
  } catch {
    return unparsed;
  }
}

/** Whether {@link jsonOf} found JSON. */
export function isParsed(value: unknown): boolean {
  return value !== unparsed;
}

/** A short excerpt of a body, on one line. */
export function excerpt(text: string, length = 120): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > length ? `${line.slice(0, length)}…` : line;
}

/** A header as evidence: `Name: value`, or `Name: (absent)`. */
export function headerLine(ex: Exchange, name: string): string {
  return `${name}: ${ex.headers.get(name) ?? '(absent)'}`;
}

/** What is wrong with an error response's body (spec 7.1.5), or undefined when it is right. */
export function errorBodyProblem(ex: Exchange): string | undefined {
  if (ex.method === 'HEAD') return undefined;
  const type = mediaType(ex);
  if (!isJsonType(type)) return `the error body is ${type || 'untyped'}, not JSON`;
  const body = jsonOf(ex) as { errors?: unknown };
  if (!isParsed(body) || typeof body !== 'object' || body === null) {
    return 'the error body is not a JSON object';
  }
  const { errors } = body;
  if (!Array.isArray(errors) || errors.length === 0) {
    return 'the error body has no non-empty "errors" list';
  }
  for (const entry of errors as { message?: unknown; code?: unknown }[]) {
    if (typeof entry?.message !== 'string') return 'an error entry has no string "message"';
    if (!Number.isInteger(entry.code)) return 'an error entry has no integer "code"';
  }
  return undefined;
}

/** The first error message of a spec error body, if there is one. */
export function firstMessage(ex: Exchange): string | undefined {
  const body = jsonOf(ex) as { errors?: { message?: unknown }[] } | undefined;
  const message = isParsed(body) ? body?.errors?.[0]?.message : undefined;
  return typeof message === 'string' ? message : undefined;
}

/** Where a response sends the client, for evidence: `301 redirect to /v1/books`. */
export function redirectText(ex: Exchange): string {
  return `${ex.status} redirect to ${ex.headers.get('location') ?? '(no Location)'}`;
}

/** The status line part of a detail: `answered 200 application/json`, or the network error. */
export function answered(ex: Exchange): string {
  if (ex.status === 0) return `no answer (${ex.error})`;
  const type = mediaType(ex);
  return `answered ${ex.status}${type ? ` ${type}` : ''}`;
}
