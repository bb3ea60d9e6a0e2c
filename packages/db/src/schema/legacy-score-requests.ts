import { date, integer, pgTable, text, unique, uuid } from "drizzle-orm/pg-core";
import { apiKeys } from "./api-keys";

/**
 * Clients that still ask for geoScore/visibilityScore (removed by score contract 2.1-phase0): a
 * counter per UTC day, route, key (null: anonymous) and fields asked, so the table grows with the
 * number of distinct callers, not with their traffic.
 */
export const legacyScoreRequests = pgTable(
  "legacy_score_request_counts",
  {
    day: date("day", { mode: "string" }).notNull(),
    route: text("route").notNull(),
    apiKeyId: uuid("api_key_id").references(() => apiKeys.id),
    /** The legacy fields asked for, sorted and comma-joined, e.g. "geoScore,visibilityScore". */
    requestedFields: text("requested_fields").notNull(),
    hits: integer("hits").notNull(),
  },
  (t) => [unique("legacy_score_request_counts_uq").on(t.day, t.route, t.apiKeyId, t.requestedFields).nullsNotDistinct()],
);
