import type { Claim, OpeningHoursSpec } from "@directory/db";

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

/** How every door introduces hours kept only as text: the words are the source's, not the directory's reading. */
export const HOURS_AS_WRITTEN = "As the source writes them";

/**
 * The hours as the source wrote them, when that is all there is to say: no structured hours, and a
 * current openingHoursText claim no older than the openingHours one (an owner who later cleared
 * the hours is not contradicted by an old registry string).
 */
export function hoursAsWritten(current: readonly Pick<Claim, "property" | "value" | "recordedAt">[], openingHours: readonly OpeningHoursSpec[]): string | null {
  if (openingHours.length > 0) return null;
  const text = current.find((claim) => claim.property === "openingHoursText");
  if (typeof text?.value !== "string" || text.value.trim() === "") return null;
  const hours = current.find((claim) => claim.property === "openingHours");
  return hours && hours.recordedAt > text.recordedAt ? null : text.value;
}
