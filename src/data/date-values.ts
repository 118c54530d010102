/**
 * Calendar-valid dates and date-times, the same on every database. `Date.parse` is no check:
 * it rolls `2026-02-30` over to March 2 and `24:00` to the next day, and MySQL, PostgreSQL and
 * SQLite each refuse, roll over or store such values their own way.
 *
 * Years run from 1000 to 9999, MySQL's supported range: the drivers also read years below 100
 * as 19xx (JavaScript's two-digit years), so earlier dates would not come back as written.
 */
export const MIN_YEAR = 1000;
export const MAX_YEAR = 9999;

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

export function isLeapYear(year: number): boolean {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

/** A day that exists in the Gregorian calendar (any year; callers bound the year). */
export function isCalendarDate(year: number, month: number, day: number): boolean {
  if (!Number.isInteger(year) || month < 1 || month > 12 || day < 1) return false;
  return day <= (month === 2 && isLeapYear(year) ? 29 : DAYS_IN_MONTH[month - 1]!);
}

/** A time of day from 00:00:00 to 23:59:59 (no leap second, no 24:00). */
export function isTimeOfDay(hour: number, minute: number, second: number): boolean {
  return hour <= 23 && minute <= 59 && second <= 59;
}

/** Minutes east of UTC for `Z`, `+02:00`, `-0530` or none (UTC); undefined past ±14:00 or with minutes past 59. */
export function zoneOffsetMinutes(zone: string | undefined): number | undefined {
  if (zone === undefined || zone === 'Z' || zone === 'z') return 0;
  const hours = Number(zone.slice(1, 3));
  const minutes = zone.length > 3 ? Number(zone.slice(-2)) : 0;
  if (hours > 14 || minutes > 59 || (hours === 14 && minutes > 0)) return undefined;
  return (zone[0] === '-' ? -1 : 1) * (hours * 60 + minutes);
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** `YYYY-MM-DD` when `text` is one and names a real day within the years served; undefined otherwise. */
export function parseDate(text: string): string | undefined {
  const match = DATE.exec(text);
  if (!match) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  return year >= MIN_YEAR && year <= MAX_YEAR && isCalendarDate(year, month, day) ? text : undefined;
}

const DATETIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|z|[+-]\d{2}(?::?\d{2})?)?$/;

/**
 * The UTC instant `YYYY-MM-DDTHH:mm:ss.sssZ` of an ISO 8601 date-time (`T` or a space; seconds
 * and their fraction optional; a zone `Z`, `+02:00`, `-0530` or `+02`, none meaning UTC), or
 * undefined when it is not one, names no real day or time, or falls outside the years served.
 * The fraction of a second keeps `fractionDigits` digits (at most 3); more are cut off, as
 * every database would round or cut them its own way.
 */
export function parseDateTime(text: string, fractionDigits: number): string | undefined {
  const match = DATETIME.exec(text);
  if (!match) return undefined;
  const [year, month, day, hour, minute] = [1, 2, 3, 4, 5].map((i) => Number(match[i]));
  const second = Number(match[6] ?? 0);
  if (year! < MIN_YEAR || !isCalendarDate(year!, month!, day!) || !isTimeOfDay(hour!, minute!, second)) return undefined;
  const offset = zoneOffsetMinutes(match[8]);
  if (offset === undefined) return undefined;
  const kept = Math.max(0, Math.min(3, Math.trunc(fractionDigits)));
  const millis = kept === 0 ? 0 : Number((match[7] ?? '').slice(0, kept).padEnd(3, '0'));
  const instant = new Date(Date.UTC(year!, month! - 1, day, hour, minute! - offset, second, millis));
  const utcYear = instant.getUTCFullYear();
  return utcYear >= MIN_YEAR && utcYear <= MAX_YEAR ? instant.toISOString() : undefined;
}
