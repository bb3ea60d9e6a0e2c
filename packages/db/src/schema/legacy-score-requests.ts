import { bigserial, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { apiKeys } from "./api-keys";

/** Clients that still ask for geoScore/visibilityScore (removed by score contract 2.1-phase0). */
export const legacyScoreRequests = pgTable("legacy_score_requests", {
  id: bigserial("id", { mode: "number" }).primaryKey(),
  route: text("route").notNull(),
  requestedFields: text("requested_fields").array().notNull(),
  apiKeyId: uuid("api_key_id").references(() => apiKeys.id),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});
