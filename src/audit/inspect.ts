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

/** The text of a string, or of an object's `message`/`detail`/`title`, if any. */
function textOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (value === null || typeof value !== 'object') return undefined;
  const { message, detail, title } = value as Record<string, unknown>;
  return [message, detail, title].find((t): t is string => typeof t === 'string');
}

/**
 * What an error response says, read from the usual shapes before concluding it says nothing:
 * the spec's `errors[].message`, then `message`, `detail` and `title` (RFC 9457 problem
 * details), `error` (a string or an object), `error_description` (RFC 6749), and a plain-text or
 * HTML body's text (`Cannot GET /v1/x`).
 */
export function errorText(ex: Exchange): string | undefined {
  const body = jsonOf(ex);
  if (isParsed(body) && body !== null && typeof body === 'object') {
    const object = body as Record<string, unknown>;
    const errors = Array.isArray(object.errors) ? object.errors.map(textOf) : [];
    const found = [
      ...errors,
      textOf(object),
      textOf(object.error),
      textOf(object.error_description),
    ].filter((t): t is string => t !== undefined && t.trim() !== '');
    return found.length > 0 ? found.join(' ') : undefined;
  }
  if (isParsed(body)) return typeof body === 'string' ? body : undefined;
  const text = ex.body
    .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return text === '' ? undefined : text;
}

/**
 * Whether the service is built with this library: its 404 for a path nothing serves is the core's
 * own (code 40401, "Nothing found at …"), so a failure can name the plugin that fixes it.
 */
export function isLibrary404(ex: Exchange): boolean {
  const body = jsonOf(ex) as { errors?: { message?: unknown; code?: unknown }[] } | undefined;
  const entry = isParsed(body) ? body?.errors?.[0] : undefined;
  return (
    entry?.code === 40401 &&
    typeof entry.message === 'string' &&
    entry.message.startsWith('Nothing found at ')
  );
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
