import { z } from "zod";

/**
 * An instant a caller names (openAt, asOf): an ISO 8601 date-time with Z or an offset, in the
 * years 0001 to 9999 once read as UTC. Year 0 and years past 9999 are valid ISO 8601 text, but
 * PostgreSQL and the calendar code behind opening hours refuse or misread them: a 400 here, never
 * a 500 further in.
 */
export function isoInstant(message?: string) {
  return z.iso.datetime({ offset: true, ...(message ? { message } : {}) }).refine(withinSupportedYears, "a year from 0001 to 9999");
}

function withinSupportedYears(value: string): boolean {
  const year = new Date(value).getUTCFullYear();
  return year >= 1 && year <= 9999;
}
