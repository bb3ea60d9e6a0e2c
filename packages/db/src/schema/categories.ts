import { integer, pgTable, text } from "drizzle-orm/pg-core";

export const categories = pgTable("categories", {
  slug: text("slug").primaryKey(),
  name: text("name").notNull(),
  /** Singular display noun used in sentences ("a dentist in Mumbai"). */
  singular: text("singular").notNull(),
  /** schema.org LocalBusiness subtype used in JSON-LD, e.g. "Dentist". */
  schemaOrgType: text("schema_org_type").notNull(),
  /** Lower-case alternative names that resolve to this category ("dental clinic"). */
  synonyms: text("synonyms").array().notNull().default([]),
  /** Relative popularity; the demo seed spreads businesses by it. */
  popularity: integer("popularity").notNull().default(1),
});

export type Category = typeof categories.$inferSelect;
