/** RFC 3339 dates in bodies (spec 2.6): which values look like dates, and whether they are RFC 3339. */

const dateTime =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:[Zz]|[+-](\d{2}):(\d{2})))?$/;

/** Whether `text` is an RFC 3339 date-time or full-date (§5.6), ranges included. */
export function isRfc3339(text: string): boolean {
  const m = dateTime.exec(text);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (month < 1 || month > 12 || day < 1 || day > days) return false;
  if (m[4] === undefined) return true;
  // A date with a time must have every part in range; 60 seconds is a leap second.
  return (
    Number(m[4]) <= 23 &&
    Number(m[5]) <= 59 &&
    Number(m[6]) <= 60 &&
    (m[7] === undefined || (Number(m[7]) <= 23 && Number(m[8]) <= 59))
  );
}

// Field names that hold a date or a time: createdAt, updated_at, birthDate, startTime, date…
const dateName =
  /(?:At|_at|Date|_date|Time|_time|Timestamp|_timestamp|On|_on)$|^(?:date|time|timestamp|datetime|expires|expiry)$/;
// Text shaped like a date in some other notation: 11/23/2026, Mon, 23 Nov 2026, 2026-11-23 10:00.
const otherDate =
  /^(?:\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}|(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*,? \d|\d{4}-\d{2}-\d{2}[ _]\d{2}:\d{2}|\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2})?(?:\.\d+)?$|\d{1,2} (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]* \d{4})/;

// Names of fields that often hold a time without a date-like suffix: lastLogin, lastSeen,
// modified, created, updated, published, expires, ts.
const timeWord =
  /^last|^ts$|_ts$|(?:[Ll]ogin|[Ss]een|[Mm]odified|[Cc]reated|[Uu]pdated|[Dd]eleted|[Pp]ublished|[Ee]xpires|[Ee]xpiry)$/;

/**
 * Whether a number in a time-named field is an epoch time: seconds or milliseconds between 2001
 * and 2100 (`lastLogin: 1714550400000`), so a count or a year is not taken for one.
 */
function isEpoch(key: string, value: number): boolean {
  if (!timeWord.test(key) || !Number.isInteger(value)) return false;
  const seconds = value > 1e11 ? value / 1000 : value;
  return seconds >= 978_307_200 && seconds < 4_102_444_800;
}

/** A value that looks like a date, with where it is and whether it is RFC 3339. */
interface DateValue {
  where: string;
  value: unknown;
  ok: boolean;
}

/** Finds the date-like values in a JSON body (by field name or by shape), up to a bound. */
export function findDates(body: unknown): DateValue[] {
  const out: DateValue[] = [];
  let budget = 5000;
  const walk = (value: unknown, where: string, key: string, depth: number) => {
    if (--budget < 0 || depth > 8) return;
    if (Array.isArray(value)) {
      for (const [i, item] of value.entries()) walk(item, `${where}[${i}]`, key, depth + 1);
    } else if (value !== null && typeof value === 'object') {
      for (const [k, v] of Object.entries(value))
        walk(v, where ? `${where}.${k}` : k, k, depth + 1);
    } else if (typeof value === 'string') {
      // A date-named field holding a URL or a word (`date: "https://…/date.png"`, an emoji
      // table) holds no date: only text with a digit that is no URL is taken for one.
      const dated = dateName.test(key) && /\d/.test(value) && !/^[a-z][a-z\d+.-]*:/i.test(value);
      if (dated || otherDate.test(value) || dateTime.test(value)) {
        out.push({ where, value, ok: isRfc3339(value) });
      }
    } else if (typeof value === 'number' && (dateName.test(key) || isEpoch(key, value))) {
      // A number in a date-named field is an epoch time, not RFC 3339 text.
      out.push({ where, value, ok: false });
    }
  };
  walk(body, '', '', 0);
  return out;
}
