/** A list's order: `sort=-year,title` read against the sortable fields, and written back. */

/**
 * One field of an order.
 *
 * @category Payloads
 */
export interface SortField {
  /** The field's name. */
  readonly field: string;
  /** Whether it sorts from the largest value down. */
  readonly descending: boolean;
}

/** Reads `sort=-year,title` against the sortable fields; unknown names are returned, not thrown. */
export function readSort(
  text: string,
  sortable: ReadonlySet<string>,
  key: string,
): { order: SortField[]; unknown: string[]; repeated: string[] } {
  const order: SortField[] = [];
  const unknown: string[] = [];
  const repeated: string[] = [];
  // Cost: linear in the value; each name is compared with at most the sortable fields.
  for (const part of text.split(',')) {
    const descending = part.startsWith('-');
    const field = descending ? part.slice(1) : part;
    if (!sortable.has(field)) unknown.push(part);
    else if (order.some((s) => s.field === field)) repeated.push(field);
    else order.push({ field, descending });
  }
  // The key ends every order, so that equal values still have one order (keyset paging needs it).
  if (!order.some((s) => s.field === key)) order.push({ field: key, descending: false });
  return { order, unknown, repeated };
}

/** The order as `sort` writes it, the key included: what a cursor is tied to. */
export function sortText(order: readonly SortField[]): string {
  return order.map((s) => (s.descending ? `-${s.field}` : s.field)).join(',');
}
