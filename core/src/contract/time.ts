/**
 * The one way the shop writes a date, on every screen and in every e-mail. A moment is
 * 'YYYY-MM-DD HH:MM UTC': the zone is part of the text, so no reader has to guess it and
 * the same moment reads the same in a browser anywhere and in an e-mail. A calendar day
 * (an expiry date, a day of a range) is the UTC day, 'YYYY-MM-DD' (SPEC.md's
 * year-month-day). Both take an ISO timestamp or a Date, and give '' without one.
 */
type When = string | Date | null | undefined;

function toDate(when: When): Date | null {
  if (!when) return null;
  const date = when instanceof Date ? when : new Date(when);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** A moment as 'YYYY-MM-DD HH:MM UTC'. */
export function formatTime(when: When): string {
  const date = toDate(when);
  if (!date) return typeof when === 'string' ? when : '';
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** The UTC calendar day of a moment as 'YYYY-MM-DD'. */
export function formatDay(when: When): string {
  const date = toDate(when);
  if (!date) return typeof when === 'string' ? when.slice(0, 10) : '';
  return date.toISOString().slice(0, 10);
}
