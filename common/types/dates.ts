/**
 * The one date reader: every place that reads a value as a point in time (tables, sorting, bucket
 * cards, charts, filters, CSV, type inference) reads it here, the same way on server and web. Never
 * `new Date(text)` / `Date.parse` on arbitrary text: what they accept differs between engines.
 *
 * Forms read (the whole text, spaces around ignored, month names in English, any case):
 * - ISO 8601: `2024-03-01`, `2024-03-01T10:00`, `2024-03-01 10:00:05.123`, with `Z` or an offset
 *   (`+02:00`, `+0200`, `+02`); also `2024/03/01`.
 * - Written: `Jun 12 1998`, `Jun 12, 1998`, `June 12, 1998`, `12 Jun 1998`, `12-Jun-1998`, with an
 *   optional weekday in front (`Fri, 12 Jun 1998`) and an optional time after (`10:00`,
 *   `10:00:05`, `10:00 PM`) and zone (`Z`, `UTC`, `GMT`, `+0100`): RFC 2822 dates are read.
 * - Numeric: `01/02/2024` (also `.` or `-` between), `1/2/24`, by the source's `dateOrder`
 *   (`mdy`: January 2; `dmy`: 1 February); a day or month out of range is not a date (never
 *   silently swapped). Two-digit years: 00–68 → 2000s, 69–99 → 1900s.
 * - Numbers (and number texts) only when the field is a date-time: a whole number 1000–2999 is that
 *   year (1 January, UTC, a date alone: epoch seconds that small would be the first hour of 1970);
 *   other numbers are epoch seconds below 10^11 in magnitude (fractions kept: 1700000000.25),
 *   epoch milliseconds from there on. A bare number is
 *   never guessed to be a date by this reader (type inference decides that per field, see infer.ts).
 *
 * Time zones: a text with a zone is that instant. A text WITHOUT a zone (`2024-03-01 10:00`,
 * `Jun 12 1998`) is read as UTC and shown as written, in UTC (`zoned: false`), so it reads the
 * same in every browser and on the server, and the CSV writes it with `Z`
 * (`2024-03-01T10:00:00.000Z`). Zoned texts and epoch numbers are shown in the viewer's local time.
 */
import type { DateOrder } from '../schemas/dataSource';

/** A date read from a value. */
export interface ReadDate {
  /** Milliseconds since 1970-01-01T00:00:00Z. */
  time: number;
  /** A day with no time of day (`Jun 12 1998`): shown as a date alone. */
  dateOnly: boolean;
  /** The value named its zone (or is an epoch number): shown in local time; otherwise shown in UTC, as written. */
  zoned: boolean;
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const MONTH_NAMES = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const WEEKDAYS = '(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)(?:day|nesday|urday|sday)?';

/** A month's number (1–12) from its English name or three-letter (or `sept`) abbreviation, else 0. */
function monthOf(name: string): number {
  const n = name.toLowerCase().replace(/\.$/, '');
  if (n === 'sept') return 9;
  const short = MONTHS.indexOf(n);
  if (short !== -1) return short + 1;
  return MONTH_NAMES.indexOf(n) + 1;
}

/** Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil). */
export function daysFromCivil(y: number, m: number, d: number): number {
  y -= m <= 2 ? 1 : 0;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const validDay = (y: number, m: number, d: number) => m >= 1 && m <= 12 && d >= 1 && d <= (m === 2 && isLeap(y) ? 29 : DAYS_IN_MONTH[m - 1]);

/** A time of day and zone after a date: ` 10:00`, `T10:00:05.123Z`, ` 10:00 PM +0100`. */
const TIME = '(?:[T\\s]+(\\d{1,2}):(\\d{2})(?::(\\d{2})(?:[.,](\\d{1,9}))?)?(?:\\s*([ap])\\.?m\\.?)?)?';
const ZONE = '(?:\\s*(z|utc|gmt|(?:(?:utc|gmt)?\\s*[+-]\\d{2}(?::?\\d{2})?)))?';

const ISO = new RegExp(`^(\\d{4})[-/](\\d{1,2})[-/](\\d{1,2})${TIME}${ZONE}$`, 'i');
const MONTH_FIRST = new RegExp(`^(?:${WEEKDAYS}\\.?,?\\s+)?([a-z]{3,9}\\.?)[\\s-]+(\\d{1,2})(?:st|nd|rd|th)?,?[\\s-]+(\\d{4})${TIME}${ZONE}$`, 'i');
const DAY_FIRST = new RegExp(`^(?:${WEEKDAYS}\\.?,?\\s+)?(\\d{1,2})(?:st|nd|rd|th)?[\\s-]+([a-z]{3,9}\\.?),?[\\s-]+(\\d{4})${TIME}${ZONE}$`, 'i');
const NUMERIC = new RegExp(`^(\\d{1,2})([/.-])(\\d{1,2})\\2(\\d{4}|\\d{2})${TIME}${ZONE}$`, 'i');

/** Minutes east of UTC of a zone text (`Z`, `UTC`, `+02:00`, `-0530`, `GMT+1` is not read), or null when none. */
function zoneMinutes(zone: string | undefined): number | null | undefined {
  if (!zone) return null;
  const z = zone.replace(/^(utc|gmt)\s*/i, '');
  if (z === '' || /^z$/i.test(z)) return 0;
  const m = /^([+-])(\d{2}):?(\d{2})?$/.exec(z);
  if (!m) return undefined;
  const h = Number(m[2]);
  const mi = Number(m[3] ?? 0);
  if (h > 14 || mi > 59) return undefined;
  return (m[1] === '-' ? -1 : 1) * (h * 60 + mi);
}

/**
 * Milliseconds of a date and the time/zone groups after it (hour, minute, second, fraction,
 * am/pm, zone), or null when any part is out of range.
 */
function compose(y: number, mo: number, d: number, t: (string | undefined)[]): ReadDate | null {
  if (!validDay(y, mo, d)) return null;
  const [hs, mis, ss, frac, ampm, zone] = t;
  let h = hs === undefined ? 0 : Number(hs);
  const mi = mis === undefined ? 0 : Number(mis);
  const s = ss === undefined ? 0 : Number(ss);
  if (ampm) {
    if (h < 1 || h > 12) return null;
    h = (h % 12) + (ampm.toLowerCase() === 'p' ? 12 : 0);
  }
  if (h > 23 || mi > 59 || s > 59) return null;
  const offset = zoneMinutes(zone);
  if (offset === undefined) return null;
  if (hs === undefined && offset !== null) return null; // a zone needs a time of day
  const ms = frac ? Math.floor(Number(`0.${frac}`) * 1000) : 0;
  const time = ((daysFromCivil(y, mo, d) * 24 + h) * 60 + mi - (offset ?? 0)) * 60_000 + s * 1000 + ms;
  return { time, dateOnly: hs === undefined, zoned: offset !== null };
}

/** The date a text names in one of the forms above, or null. */
export function parseDateText(text: string, dateOrder: DateOrder = 'mdy'): ReadDate | null {
  const s = text.trim();
  if (s.length < 6 || s.length > 64) return null;
  let m = ISO.exec(s);
  if (m) return compose(Number(m[1]), Number(m[2]), Number(m[3]), m.slice(4));
  m = MONTH_FIRST.exec(s);
  if (m) {
    const mo = monthOf(m[1]);
    return mo ? compose(Number(m[3]), mo, Number(m[2]), m.slice(4)) : null;
  }
  m = DAY_FIRST.exec(s);
  if (m) {
    const mo = monthOf(m[2]);
    return mo ? compose(Number(m[3]), mo, Number(m[1]), m.slice(4)) : null;
  }
  m = NUMERIC.exec(s);
  if (m) {
    const [a, b] = [Number(m[1]), Number(m[3])];
    let y = Number(m[4]);
    if (m[4].length === 2) y += y < 69 ? 2000 : 1900;
    return dateOrder === 'dmy' ? compose(y, b, a, m.slice(5)) : compose(y, a, b, m.slice(5));
  }
  return null;
}

/** Epoch seconds below this magnitude, milliseconds from it on (10^11 s is the year 5138; 10^11 ms is 1973). */
export const EPOCH_MS_FROM = 1e11;

/** Milliseconds of an epoch number: seconds (fractions kept) below 10^11 in magnitude, else milliseconds. */
export const epochMillis = (n: number) => (Math.abs(n) < EPOCH_MS_FROM ? Math.round(n * 1000) : Math.round(n));

/** Whole years a number of a date-time field names (1900 is the year 1900, never 1900 s after 1970). */
export const YEAR_MIN = 1000;
export const YEAR_MAX = 2999;
export const isYear = (n: number): boolean => Number.isInteger(n) && n >= YEAR_MIN && n <= YEAR_MAX;

/** How a field's values are read as dates. */
export interface DateReading {
  dateOrder?: DateOrder;
  /** The field is a date-time: numbers (and number texts) are epoch seconds or milliseconds. */
  epoch?: boolean;
  /**
   * Charts: a value without a zone (a date, a whole year, a time without zone) is placed at that
   * wall-clock time on the viewer's clock, as charts bucket by the viewer's days, months and years:
   * the year 1900 lies in the viewer's 1900 and `2024-03-01` in their 1 March, west of UTC too
   * (read as UTC they would fall on the evening before). Zoned values stay the instant they name.
   */
  local?: boolean;
}

/** Per UTC hour, what to add to an unzoned time to read its wall clock locally (zones change offset on hour boundaries at most). */
const localOffsets = new Map<number, number>();
const HOUR_MS = 3_600_000;

/** An unzoned time (its UTC clock is the wall clock written) as the local instant whose clock reads the same. */
export function onLocalClock(t: number): number {
  const hour = Math.floor(t / HOUR_MS);
  let offset = localOffsets.get(hour);
  if (offset === undefined) {
    const utc = new Date(hour * HOUR_MS);
    const local = new Date(0);
    local.setFullYear(utc.getUTCFullYear(), utc.getUTCMonth(), utc.getUTCDate());
    local.setHours(utc.getUTCHours(), 0, 0, 0);
    offset = local.getTime() - hour * HOUR_MS;
    if (localOffsets.size > 100_000) localOffsets.clear();
    localOffsets.set(hour, offset);
  }
  return t + offset;
}

const NUMBER_TEXT = /^[+-]?\d+(?:\.\d+)?$/;
/** Epochs read within year 0–9999. */
const MAX_MS = 253_402_300_800_000;

/** The date a value names (see the module note), or null. */
export function readDate(value: unknown, reading: DateReading = {}): ReadDate | null {
  if (typeof value === 'string') {
    const t = value.trim();
    if (reading.epoch && NUMBER_TEXT.test(t)) return readDate(Number(t), reading);
    return parseDateText(t, reading.dateOrder);
  }
  if (typeof value === 'number' && reading.epoch && Number.isFinite(value)) {
    if (isYear(value)) return { time: daysFromCivil(value, 1, 1) * 86_400_000, dateOnly: true, zoned: false };
    const time = epochMillis(value);
    return Math.abs(time) < MAX_MS ? { time, dateOnly: false, zoned: true } : null;
  }
  return null;
}

// Character codes of "-", ":", "T", "Z" and ".".
const DASH = 45;
const COLON = 58;
const T = 84;
const Z = 90;
const DOT = 46;

/** The digit at `i` of `s`, or NaN (which fails every range check below). */
const digit = (s: string, i: number): number => {
  const d = s.charCodeAt(i) - 48;
  return d >= 0 && d <= 9 ? d : NaN;
};

/** Days since 1970 of the first of a month, by year * 16 + month: records share a few months. */
const monthStarts = new Map<number, number>();
function monthStart(y: number, mo: number): number {
  const key = y * 16 + mo;
  let days = monthStarts.get(key);
  if (days === undefined) monthStarts.set(key, (days = daysFromCivil(y, mo, 1)));
  return days;
}

/**
 * Milliseconds of a date text, NaN when it is none (the aggregator's hot path): the UTC ISO form
 * records usually carry ("2026-01-05T13:45:00Z", with or without milliseconds) is read digit by
 * digit, several times faster than a regular expression; any other form goes to `parseDateText`.
 */
export function parseTime(text: string, dateOrder: DateOrder = 'mdy'): number {
  const t = zonedTime(text);
  return Number.isNaN(t) ? (parseDateText(text, dateOrder)?.time ?? NaN) : t;
}

/** Milliseconds of the UTC ISO form ("2026-01-05T13:45:00Z", with or without milliseconds), read digit by digit; NaN for any other text. */
function zonedTime(text: string): number {
  const n = text.length;
  if ((n === 20 || n === 24) && text.charCodeAt(n - 1) === Z && text.charCodeAt(4) === DASH && text.charCodeAt(7) === DASH && text.charCodeAt(10) === T
    && text.charCodeAt(13) === COLON && text.charCodeAt(16) === COLON && (n === 20 || text.charCodeAt(19) === DOT)) {
    const y = digit(text, 0) * 1000 + digit(text, 1) * 100 + digit(text, 2) * 10 + digit(text, 3);
    const mo = digit(text, 5) * 10 + digit(text, 6);
    const d = digit(text, 8) * 10 + digit(text, 9);
    const h = digit(text, 11) * 10 + digit(text, 12);
    const mi = digit(text, 14) * 10 + digit(text, 15);
    const sec = digit(text, 17) * 10 + digit(text, 18);
    const ms = n === 24 ? digit(text, 20) * 100 + digit(text, 21) * 10 + digit(text, 22) : 0;
    // Every month has 28 days (NaN fails them all); the rest is checked by the full reader.
    if (y >= 0 && mo >= 1 && mo <= 12 && d >= 1 && d <= 28 && h <= 23 && mi <= 59 && sec <= 59 && ms >= 0) {
      return (((monthStart(y, mo) + d - 1) * 24 + h) * 60 + mi) * 60_000 + sec * 1000 + ms;
    }
  }
  return NaN;
}

/** Milliseconds of a value read as a date (`readDate`), NaN when it is none: the sort and chart key. */
export function timeOf(value: unknown, reading: DateReading = {}): number {
  if (reading.local) {
    const read = typeof value === 'string' && !(reading.epoch && NUMBER_TEXT.test(value.trim())) ? zonedTime(value) : NaN;
    if (!Number.isNaN(read)) return read;
    const d = readDate(value, reading);
    return d ? (d.zoned ? d.time : onLocalClock(d.time)) : NaN;
  }
  if (typeof value === 'string' && !(reading.epoch && NUMBER_TEXT.test(value.trim()))) return parseTime(value, reading.dateOrder);
  return readDate(value, reading)?.time ?? NaN;
}
