import { sql } from "drizzle-orm";
import { check, date, index, integer, pgTable, text, timestamp, unique, uuid } from "drizzle-orm/pg-core";
import { categories } from "./categories";
import { cities } from "./cities";
import { documents } from "./documents";

/**
 * Questions the service asks AI engines about a category in a city (services/citations/): the
 * queue and its history. One row per engine, model, pair, question and period (a UTC day): the
 * unique key makes a check run once however many workers enqueue it. A claimed check is leased;
 * a worker that dies leaves it to be claimed again when the lease ends. `trigger` is in the key: an
 * owner's recheck (at most one a business a day, counted by the owner procedure's limit) is its own
 * check even on a day whose scheduled check of the same question already ran, and the businesses of
 * one pair asking the same day share it (the answer is about the pair, not about one of them).
 */
export const citationChecks = pgTable(
  "citation_checks",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** The engine's name in CITATION_ENGINES: "openai", "anthropic", "google", "perplexity", "compatible". */
    engine: text("engine").notNull(),
    model: text("model").notNull(),
    query: text("query").notNull(),
    categorySlug: text("category_slug")
      .notNull()
      .references(() => categories.slug),
    cityId: integer("city_id")
      .notNull()
      .references(() => cities.id),
    /** The UTC day the check belongs to: at most one check per engine, model, pair, question and trigger a day. */
    period: date("period", { mode: "string" }).notNull(),
    /** "schedule" (the worker's policy, or an operator's run) or "owner" (a recheck an owner asked for). */
    trigger: text("trigger").notNull().default("schedule"),
    /** "queued" (waiting for its next attempt), "running" (leased), "done", "failed" (out of attempts). */
    status: text("status").notNull().default("queued"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    /** While running: when another worker may take it over (the runner crashed). */
    leaseUntil: timestamp("lease_until", { withTimezone: true }),
    /** Why the last attempt failed (kept when a later attempt succeeds). */
    failureReason: text("failure_reason"),
    failedAt: timestamp("failed_at", { withTimezone: true }),
    checkedAt: timestamp("checked_at", { withTimezone: true }),
    /** The stored answer (an ai_answer document), once done. */
    documentId: uuid("document_id").references(() => documents.id),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique("citation_checks_once_per_period").on(t.engine, t.model, t.categorySlug, t.cityId, t.query, t.period, t.trigger),
    check("citation_checks_status", sql`${t.status} in ('queued', 'running', 'done', 'failed')`),
    check("citation_checks_trigger", sql`${t.trigger} in ('schedule', 'owner')`),
    index("citation_checks_due_idx")
      .on(t.nextAttemptAt)
      .where(sql`${t.status} in ('queued', 'running')`),
    index("citation_checks_failed_at_idx").on(t.failedAt),
  ],
);

/** Engine calls made each UTC day across engines and workers, held to CITATION_CHECKS_PER_DAY. */
export const citationDailySpend = pgTable("citation_daily_spend", {
  day: date("day", { mode: "string" }).primaryKey(),
  calls: integer("calls").notNull().default(0),
});
