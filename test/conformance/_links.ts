/** Reads the `Link` header of a response (RFC 8288 §3): target by relation. */
export function linkTargets(header: string | null): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of (header ?? '').matchAll(/<([^>]*)>\s*;\s*rel="([^"]+)"/g)) out[m[2]!] = m[1]!;
  return out;
}
