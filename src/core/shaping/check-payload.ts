/** The development payload checker: flags what breaks the field and payload rules (spec 2.1–2.9). */
import { isPlural } from '../lint/pluralize.ts';
import { isDateTime } from '../validation/field-rule.ts';

type Style = 'camelCase' | 'snake_case' | 'kebab-case' | 'PascalCase';

function styleOf(key: string): Style | undefined {
  if (key.includes('_') && /^[a-z0-9_]+$/.test(key)) return 'snake_case';
  if (key.includes('-') && /^[a-z0-9-]+$/.test(key)) return 'kebab-case';
  if (/^[A-Z][a-z0-9]+[A-Z]/.test(key)) return 'PascalCase';
  if (/^[a-z][a-z0-9]*[A-Z][A-Za-z0-9]*$/.test(key)) return 'camelCase';
  return undefined; // one word: fits every style
}

// Strings that mean a date or a time but are not RFC 3339: ISO without a zone or with a space,
// the US and European orders, and what Date.prototype.toString writes.
const dateLike =
  /^(\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}.*)?|\d{1,2}[/.]\d{1,2}[/.]\d{2,4}.*|(Mon|Tue|Wed|Thu|Fri|Sat|Sun),? .*\d{4}.*)$/;
const dateOnly = /^\d{4}-\d{2}-\d{2}$/;

const maxNodes = 10_000;

/**
 * Checks a response value against the payload rules and returns a finding per problem:
 * field names joined in more than one style (spec 2.3), date strings that are not RFC 3339
 * (spec 2.6; a date alone such as `2026-11-21` is RFC 3339's full-date and passes), and lists
 * under singular names (spec 2.5). It walks at most 10,000 values.
 *
 * @example
 * ```ts
 * import { checkPayload } from 'api-conventions/lint';
 * checkPayload({ created_at: '2026-11-21 10:00', hasNext: true, book: [] });
 * // three findings: mixed styles, a date that is not RFC 3339, a list under "book"
 * ```
 *
 * @category Lint
 */
export function checkPayload(value: unknown): string[] {
  const findings: string[] = [];
  const styles = new Map<Style, string>();
  let nodes = 0;
  const walk = (v: unknown, path: string, depth: number): void => {
    if (++nodes > maxNodes || depth > 32) return;
    if (typeof v === 'string') {
      if (dateLike.test(v) && !isDateTime(v) && !dateOnly.test(v)) {
        findings.push(
          `${path || 'the body'} holds "${v.slice(0, 40)}", a date that is not RFC 3339 (spec 2.6).`,
        );
      }
      return;
    }
    if (typeof v !== 'object' || v === null || v instanceof Date) return;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) walk(v[i], `${path}[${i}]`, depth + 1);
      return;
    }
    for (const key of Object.keys(v)) {
      const style = styleOf(key);
      if (style !== undefined && !styles.has(style)) styles.set(style, key);
      const item = (v as Record<string, unknown>)[key];
      if (Array.isArray(item) && !isPlural(key)) {
        findings.push(
          `"${path ? `${path}.` : ''}${key}" holds a list under a singular name; name it in the plural (spec 2.5).`,
        );
      }
      walk(item, path ? `${path}.${key}` : key, depth + 1);
    }
  };
  walk(value, '', 0);
  if (styles.size > 1) {
    const seen = [...styles].map(([style, key]) => `"${key}" (${style})`).join(', ');
    findings.push(`Field names are joined in more than one style: ${seen} (spec 2.3).`);
  }
  // A list repeats its problems per item: each is reported once.
  return [...new Set(findings.map((f) => f.replace(/\[\d+\]/g, '[]')))];
}
