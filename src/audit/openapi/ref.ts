/** The OpenAPI document as the auditor and the Spectral ruleset read it: its type, local `$ref`s, JSON pointers. */

/** An OpenAPI document, as far as the auditor reads it. */
export interface OpenApiDocument {
  openapi?: string;
  servers?: { url?: string }[];
  paths?: Record<string, Record<string, unknown>>;
  components?: Record<string, unknown>;
}

/** Resolves a local `$ref` (`#/components/schemas/Book`), a few levels deep. */
export function resolveRef(doc: OpenApiDocument, value: unknown, depth = 0): unknown {
  const ref = (value as { $ref?: unknown } | null)?.$ref;
  if (typeof ref !== 'string' || !ref.startsWith('#/') || depth > 10) return value;
  let node: unknown = doc;
  for (const part of ref.slice(2).split('/')) {
    const key = part.replace(/~1/g, '/').replace(/~0/g, '~');
    node = (node as Record<string, unknown> | undefined)?.[key];
  }
  return resolveRef(doc, node, depth + 1);
}

/** A JSON pointer fragment for document locations: `#/paths/~1v1~1books/get`. */
export function pointer(...parts: string[]): string {
  return `#/${parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`;
}
