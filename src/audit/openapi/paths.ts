/** What the live audit takes from an OpenAPI document: concrete paths, their methods, example bodies. */
import { type OpenApiDocument, resolveRef } from './load.ts';

const methods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch'];

/** A documented path, filled in with example values where it has parameters. */
export interface DocumentedPath {
  /** The template with the servers' base path (`/v1/books/{id}`). */
  template: string;
  /** The path to request, or undefined when a parameter has no example. */
  concrete: string | undefined;
  /** The first parameter with no example, when `concrete` is undefined. */
  missing?: string;
  /** The declared methods, upper-case. */
  methods: string[];
  /** A POST body example, when the document gives one. */
  postExample: unknown;
}

/** The base path of the first server (`https://api.example.com/v1` → `/v1`), '' without one. */
export function serverPrefix(doc: OpenApiDocument): string {
  const url = doc.servers?.[0]?.url;
  if (typeof url !== 'string') return '';
  try {
    return new URL(url, 'http://server.invalid').pathname.replace(/\/$/, '');
  } catch {
    return '';
  }
}

/** A path as a client sends it (a space becomes %20), on the base origin whatever it holds. */
function asPath(path: string): string {
  return new URL(`http://x${path.startsWith('/') ? '' : '/'}${path}`).pathname;
}

function exampleOf(doc: OpenApiDocument, node: unknown): unknown {
  const value = resolveRef(doc, node) as
    | { example?: unknown; examples?: unknown; schema?: unknown }
    | undefined;
  if (!value || typeof value !== 'object') return undefined;
  if (value.example !== undefined) return value.example;
  if (value.examples && typeof value.examples === 'object') {
    const first = Object.values(value.examples as Record<string, unknown>)[0];
    const resolved = resolveRef(doc, first) as { value?: unknown } | undefined;
    if (resolved?.value !== undefined) return resolved.value;
  }
  const schema = resolveRef(doc, value.schema) as { example?: unknown } | undefined;
  return schema?.example;
}

/** Every documented path, with what the live checks need. */
export function documentedPaths(doc: OpenApiDocument): DocumentedPath[] {
  const prefix = serverPrefix(doc);
  return Object.entries(doc.paths ?? {}).map(([template, item]) => {
    const declared = methods.filter((m) => item && typeof item[m] === 'object');
    const params = [
      ...((item?.parameters as unknown[]) ?? []),
      ...declared.flatMap(
        (m) => ((item[m] as { parameters?: unknown[] }).parameters ?? []) as unknown[],
      ),
    ].map((p) => resolveRef(doc, p) as { name?: string; in?: string });
    let missing: string | undefined;
    const concrete = template.replace(/\{([^}]+)\}/g, (_, name: string) => {
      const param = params.find((p) => p?.in === 'path' && p.name === name);
      const example = param ? exampleOf(doc, param) : undefined;
      if (example === undefined) missing ??= name;
      return encodeURIComponent(String(example));
    });
    const post = item?.post as { requestBody?: unknown } | undefined;
    const body = resolveRef(doc, post?.requestBody) as
      | { content?: Record<string, unknown> }
      | undefined;
    const json = body?.content?.['application/json'];
    return {
      template: `${prefix}${template}`,
      // As a client sends it: a space becomes %20.
      // A path of the base origin, never a reference: `//host/x` stays a path.
      concrete: missing === undefined ? asPath(`${prefix}${concrete}`) : undefined,
      ...(missing !== undefined ? { missing } : {}),
      methods: declared.map((m) => m.toUpperCase()),
      postExample: json === undefined ? undefined : exampleOf(doc, json),
    };
  });
}
