import { replicaReads } from "../../procedures/read-routing";
import { requireServableBySlug } from "../../services/entities/business-lookup";
import { openingState, todaysHours, todaysHoursLine } from "../../services/where-when/opening-hours-time";
import { DAY_NAMES, dayRanges, rangeText } from "../../services/where-when/week-hours";
import { MINUTES_PER_DAY } from "../../services/where-when/local-time";
import { anonymousDailyProcedure } from "../../procedures/builders";
import { ZBusinessHoursInput, ZBusinessHoursOutput, type TBusinessHoursOutput } from "./business-hours.types";

/** One day's ranges as a person reads them: "09:00-18:00, 19:00-22:00", "Closed", "24 hours". */
function dayText(ranges: readonly [number, number][]): string {
  if (ranges.length === 0) return "Closed";
  if (ranges.some(([opens, closes]) => opens === 0 && closes >= MINUTES_PER_DAY)) return "24 hours";
  return ranges.map(rangeText).join(", ");
}

/**
 * A profile page's hours in the business's own time: the week, today in its city's zone, and open
 * or closed at `at` (the where-when helpers every search listing uses, so the page and the
 * listings agree). The page reads this after the profile, as part of the same page view.
 */
export const businessHours = anonymousDailyProcedure
  .use(replicaReads)
  .input(ZBusinessHoursInput)
  .output(ZBusinessHoursOutput)
  .query(async ({ ctx, input }): Promise<TBusinessHoursOutput> => {
    const business = await requireServableBySlug(ctx.readDb, input.slug);
    const at = input.at ? new Date(input.at) : new Date();
    const hours = business.openingHours;
    const week = hours.length ? dayRanges(hours).map((ranges, index) => ({ day: DAY_NAMES[index]!, hours: dayText(ranges) })) : [];
    const zone = business.timeZone;
    if (!zone) return { timeZone: null, hoursKnown: hours.length > 0, today: null, week, openNow: null, nextChange: null, summary: null };
    const state = openingState(hours, zone, at);
    return {
      timeZone: zone,
      hoursKnown: state.hoursKnown,
      today: todaysHours(hours, zone, at)?.day ?? null,
      week,
      openNow: state.openNow,
      nextChange: state.nextChange,
      summary: todaysHoursLine(hours, zone, at),
    };
  });
