import { index, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";
import { businesses } from "./businesses";
import { apiKeyKind } from "./enums";

/** API keys: only a SHA-256 of the key is stored, plus a short prefix for people to recognise it. */
export const apiKeys = pgTable(
  "api_keys",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    kind: apiKeyKind("kind").notNull(),
    /** First characters of the key, safe to show ("bdk_dev_3fA9x1"). */
    visiblePrefix: text("visible_prefix").notNull(),
    /** Hex SHA-256 of the whole key. The key has 128+ random bits, so no slow hash is needed. */
    keyHash: text("key_hash").notNull().unique(),
    /** Set for business keys: the one business the key may act for. */
    businessId: uuid("business_id").references(() => businesses.id),
    label: text("label"),
    /** The account that made the key on the developer page; null for keys made by an operator. */
    accountId: uuid("account_id").references(() => accounts.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    /** When the key last authenticated a request, to the minute (written at most once a minute). */
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
  },
  (t) => [index("api_keys_business_idx").on(t.businessId), index("api_keys_account_idx").on(t.accountId)],
);

export type ApiKey = typeof apiKeys.$inferSelect;
