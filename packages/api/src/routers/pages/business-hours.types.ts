import { z } from "zod";

export const ZBusinessHoursInput = z.object({
  slug: z.string().trim().min(1).max(200).describe("A business slug, current or former"),
  at: z.iso.datetime({ offset: true }).optional().describe("The instant to read the hours at (ISO 8601 with Z or an offset); default now"),
});

const ZNextChange = z.object({ change: z.enum(["opens", "closes"]), utc: z.string(), local: z.string() });

export const ZBusinessHoursOutput = z.object({
  timeZone: z.string().nullable().describe("The city's IANA zone the hours are kept in; null when the city has none yet"),
  hoursKnown: z.boolean(),
  today: z.string().nullable().describe("The local weekday at `at` (Monday ... Sunday); null without a zone"),
  week: z
    .array(z.object({ day: z.string(), hours: z.string().describe('"09:00-18:00" (several joined by ", "), "Closed" or "24 hours"') }))
    .describe("Monday first; empty when no hours are known"),
  openNow: z.boolean().nullable().describe("Null when the hours or the zone are unknown"),
  nextChange: ZNextChange.nullable().describe("When it next opens or closes; null for 24/7, never open, or unknown"),
  summary: z.string().nullable().describe('"Today (Tuesday) 09:00-18:00, open now until 18:00"; null when unknown'),
});

export type TBusinessHoursOutput = z.infer<typeof ZBusinessHoursOutput>;
