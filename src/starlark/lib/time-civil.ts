/**
 * Proleptic Gregorian calendar arithmetic for the `time` module: Go's time.Date normalisation
 * (month 13 is January of the next year, day 0 is the last day of the previous month) and the
 * civil fields of a day count. Pure integer math on JS numbers (days since 1970-01-01).
 */

/** Days from 1970-01-01 to year-month-day (month and day may overflow, as in Go's time.Date). */
export function daysFromCivil(year: number, month: number, day: number): number {
  const m0 = month - 1;
  const y = year + Math.floor(m0 / 12);
  const m = m0 - Math.floor(m0 / 12) * 12 + 1;
  // Howard Hinnant's days_from_civil, then the day offset.
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5);
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468 + (day - 1);
}

export interface Civil {
  year: number;
  month: number;
  day: number;
  /** 0 = Sunday, as Go's time.Weekday. */
  weekday: number;
  /** 1..366. */
  yearDay: number;
}

/** The calendar date of a day count since 1970-01-01. */
export function civilFromDays(days: number): Civil {
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  const weekday = (((days + 4) % 7) + 7) % 7;
  return { year, month, day, weekday, yearDay: days - daysFromCivil(year, 1, 1) + 1 };
}

export function isLeap(year: number): boolean {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

/** Number of days in a month (1..12) of a year. */
export function daysIn(month: number, year: number): number {
  if (month === 2) return isLeap(year) ? 29 : 28;
  return [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
}
