/**
 * Which ISO 8601 timestamps and dates Cadence accepts: those that JavaScript and PostgreSQL
 * both represent as the same instant. RFC 3339's grammar (and so Ajv's `date-time` format)
 * admits more: a leap second (JavaScript cannot hold one; PostgreSQL rolls it into the next
 * minute), year 0 or a day the month does not have (PostgreSQL refuses them), offsets up to
 * ±23:59 (PostgreSQL takes at most ±15:59). Such a value is the client's mistake and is refused
 * where it enters, naming the field, before any SQL runs.
 */

/** Date, time with optional seconds and fraction, and `Z` or an offset `±hh`, `±hhmm`, `±hh:mm`. */
const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(?:([Zz])|([+-])(\d{2})(?::?(\d{2}))?)$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** PostgreSQL refuses a time zone displacement of 16 hours or more. */
const MAX_OFFSET_MINUTES = 15 * 60 + 59;

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

function daysInMonth(year: number, month: number): number {
  return month === 2 ? (isLeapYear(year) ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;
}

function isCalendarDate(year: number, month: number, day: number): boolean {
  return year >= 1 && month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

/** The UTC instant of a calendar time; Date.UTC alone would read years 0–99 as 1900–1999. */
function utcInstant(year: number, month: number, day: number, hour: number, minute: number, second: number, ms: number): number {
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, ms);
  return date.getTime();
}

/** Four-digit years only, so that every stored instant renders back in the same ISO 8601 form. */
const EARLIEST = utcInstant(1, 1, 1, 0, 0, 0, 0);
const LATEST = utcInstant(9999, 12, 31, 23, 59, 59, 999);

/** The instant `text` names, or undefined when it is not a timestamp both sides can represent. */
export function parseTimestamp(text: string): Date | undefined {
  const match = TIMESTAMP.exec(text);
  if (!match) return undefined;
  const [year, month, day, hour, minute] = match.slice(1, 6).map(Number) as [number, number, number, number, number];
  const second = match[6] === undefined ? 0 : Number(match[6]);
  if (!isCalendarDate(year, month, day) || hour > 23 || minute > 59 || second > 59) return undefined;
  let offsetMinutes = 0;
  if (!match[8]) {
    const hours = Number(match[10]);
    const minutes = match[11] === undefined ? 0 : Number(match[11]);
    if (minutes > 59) return undefined;
    offsetMinutes = (match[9] === '-' ? -1 : 1) * (hours * 60 + minutes);
    if (Math.abs(offsetMinutes) > MAX_OFFSET_MINUTES) return undefined;
  }
  const ms = match[7] === undefined ? 0 : Math.floor(Number(`0${match[7]}`) * 1000);
  const instant = utcInstant(year, month, day, hour, minute, second, ms) - offsetMinutes * 60_000;
  return instant >= EARLIEST && instant <= LATEST ? new Date(instant) : undefined;
}

/** Whether `text` is a calendar date `YYYY-MM-DD` with a four-digit year from 0001. */
export function isRepresentableDate(text: string): boolean {
  const match = DATE.exec(text);
  return match !== null && isCalendarDate(Number(match[1]), Number(match[2]), Number(match[3]));
}
