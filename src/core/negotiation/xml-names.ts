/**
 * XML element names (XML 1.0 §2.3): which names are valid, and the name of a list's entries. A
 * leaf module, so the OpenAPI document names XML elements as the serializer writes them without
 * depending on the serializer.
 */

// XML 1.0 §2.3 names, kept to ASCII; names starting with "xml" are reserved (§2.3).
const elementName = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

/**
 * Whether `name` can be an element name as it is: ASCII letters, digits, `_`, `.` and `-`, not
 * starting with a digit, `.`, `-` or `xml`.
 *
 * @category Negotiation
 */
export function isXmlName(name: string): boolean {
  return elementName.test(name) && !/^xml/i.test(name);
}

/**
 * The element name of one entry of a list named `name`: `books` → `book`, `entries` → `entry`,
 * `errors` → `error`; `item` when there is no plural to undo.
 *
 * @category Negotiation
 */
export function singularOf(name: string): string {
  let one = 'item';
  if (/[^aeiou]ies$/i.test(name)) one = `${name.slice(0, -3)}y`;
  else if (/(ss|x|z|ch|sh)es$/i.test(name)) one = name.slice(0, -2);
  else if (/[^s]s$/i.test(name)) one = name.slice(0, -1);
  return isXmlName(one) ? one : 'item';
}
