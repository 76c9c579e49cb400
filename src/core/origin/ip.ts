/** IP addresses as bytes: parsing, IPv4-mapped folding and prefix matching, for proxies and limits. */

/**
 * An address as 16 bytes (IPv4 in its IPv4-mapped IPv6 form) and whether it is IPv4.
 *
 * @category Request origin
 */
export interface ParsedIp {
  /** The 16 bytes of the IPv6 form. */
  bytes: Uint8Array;
  /** Whether the address is IPv4 (given as such, or IPv4-mapped IPv6 folded back). */
  v4: boolean;
}

const v4Pattern = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

function parseV4(text: string, into: Uint8Array, at: number): boolean {
  const m = v4Pattern.exec(text);
  if (!m) return false;
  for (let i = 0; i < 4; i++) {
    const part = m[i + 1]!;
    const n = Number(part);
    if (n > 255 || (part.length > 1 && part[0] === '0')) return false;
    into[at + i] = n;
  }
  return true;
}

function parseV6(text: string, bytes: Uint8Array): boolean {
  const zone = text.indexOf('%');
  const address = zone === -1 ? text : text.slice(0, zone);
  const halves = address.split('::');
  if (halves.length > 2) return false;
  const groups = (half: string) => (half === '' ? [] : half.split(':'));
  const head = groups(halves[0]!);
  const tail = halves.length === 2 ? groups(halves[1]!) : [];
  const last = (tail.length ? tail : head).at(-1);
  let v4Tail = false;
  if (last?.includes('.')) {
    // RFC 4291 §2.2: the last 32 bits may be written as an IPv4 address.
    if (!parseV4(last, bytes, 12)) return false;
    (tail.length ? tail : head).pop();
    v4Tail = true;
  }
  const slots = v4Tail ? 6 : 8;
  const given = head.length + tail.length;
  if (halves.length === 1 ? given !== slots : given >= slots) return false;
  const all = [...head, ...Array<string>(slots - given).fill('0'), ...tail];
  for (let i = 0; i < slots; i++) {
    const group = all[i]!;
    if (!/^[0-9a-fA-F]{1,4}$/.test(group)) return false;
    const n = Number.parseInt(group, 16);
    bytes[i * 2] = n >> 8;
    bytes[i * 2 + 1] = n & 0xff;
  }
  return true;
}

/**
 * Parses an IPv4 or IPv6 address (a zone index is ignored). IPv4-mapped IPv6 (`::ffff:1.2.3.4`)
 * is folded to IPv4, so one client has one address whichever socket family it came through.
 * Returns `undefined` for anything that is not an address.
 *
 * @category Request origin
 */
export function parseIp(text: string): ParsedIp | undefined {
  const bytes = new Uint8Array(16);
  if (parseV4(text, bytes, 12)) {
    bytes[10] = 0xff;
    bytes[11] = 0xff;
    return { bytes, v4: true };
  }
  if (!text.includes(':') || !parseV6(text, bytes)) return undefined;
  const mapped =
    bytes.subarray(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff;
  return { bytes, v4: mapped };
}

/**
 * The canonical text of a parsed address: dotted IPv4, or IPv6 groups without zero compression.
 *
 * @category Request origin
 */
export function formatIp(ip: ParsedIp): string {
  if (ip.v4) return Array.from(ip.bytes.subarray(12)).join('.');
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2)
    groups.push(((ip.bytes[i]! << 8) | ip.bytes[i + 1]!).toString(16));
  return groups.join(':');
}

/**
 * An address range: a network and the number of leading bits that must match.
 *
 * @category Request origin
 */
export interface IpRange {
  /** The network's bytes, IPv6 form. */
  bytes: Uint8Array;
  /** Leading bits of the IPv6 form that must match (an IPv4 `/8` is 104 here). */
  bits: number;
}

/**
 * Tells whether an address lies in a range.
 *
 * @category Request origin
 */
export function inRange(ip: ParsedIp, range: IpRange): boolean {
  const whole = range.bits >> 3;
  for (let i = 0; i < whole; i++) if (ip.bytes[i] !== range.bytes[i]) return false;
  const rest = range.bits & 7;
  if (rest === 0) return true;
  const mask = (0xff << (8 - rest)) & 0xff;
  return (ip.bytes[whole]! & mask) === (range.bytes[whole]! & mask);
}

/**
 * Parses `address` or `address/bits` (IPv4 or IPv6) into a range; throws a `TypeError` naming the
 * value when it is neither, since ranges come from options checked at start-up.
 *
 * @category Request origin
 */
export function parseRange(text: string): IpRange {
  const slash = text.indexOf('/');
  const ip = parseIp(slash === -1 ? text : text.slice(0, slash));
  const max = ip?.v4 ? 32 : 128;
  const bits = slash === -1 ? max : Number(text.slice(slash + 1));
  if (
    ip === undefined ||
    !Number.isInteger(bits) ||
    bits < 0 ||
    bits > max ||
    (slash !== -1 && !/^\d+$/.test(text.slice(slash + 1)))
  ) {
    throw new TypeError(
      `"${text}" is not an IP address or range; write one like 10.0.0.1, 10.0.0.0/8 or fd00::/8.`,
    );
  }
  return { bytes: ip.bytes, bits: ip.v4 ? bits + 96 : bits };
}
