import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, primaryKey, uuid } from "drizzle-orm/pg-core";
import { businesses } from "./businesses";

/**
 * The co-citation graph: two businesses named in the same documents, stored once with the smaller
 * id first. Kept current on every ingest (packages/api/src/services/graph/derive.ts); weight = documents naming both.
 */
export const coMentionEdges = pgTable(
  "co_mention_edges",
  {
    businessA: uuid("business_a")
      .notNull()
      .references(() => businesses.id),
    businessB: uuid("business_b")
      .notNull()
      .references(() => businesses.id),
    weight: integer("weight").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.businessA, t.businessB] }),
    index("co_mention_edges_b_idx").on(t.businessB, t.businessA),
    index("co_mention_edges_weight_idx").on(t.weight.desc(), t.businessA, t.businessB),
    check("co_mention_edges_order", sql`${t.businessA} < ${t.businessB}`),
  ],
);
