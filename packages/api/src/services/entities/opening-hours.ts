import type { OpeningHoursSpec } from "@directory/db";

/** "Monday-Friday 09:00-18:00; Saturday 10:00-14:00", or null when no hours are known. */
export function describeOpeningHours(hours: OpeningHoursSpec[]): string | null {
  if (hours.length === 0) return null;
  return hours
    .map((spec) => {
      const first = spec.days[0] ?? "";
      const last = spec.days[spec.days.length - 1] ?? "";
      const days = spec.days.length > 2 ? `${first}-${last}` : spec.days.join(", ");
      return `${days} ${spec.opens}-${spec.closes}`;
    })
    .join("; ");
}
