import { sql } from "drizzle-orm";
import { doublePrecision, index, integer, pgTable, text } from "drizzle-orm/pg-core";

export const cities = pgTable(
  "cities",
  {
    /** GeoNames id of the city. */
    id: integer("id").primaryKey(),
    /** Stable URL segment, e.g. "mumbai-in". */
    slug: text("slug").notNull().unique(),
    name: text("name").notNull(),
    /** ISO 3166-1 alpha-2. */
    countryCode: text("country_code").notNull(),
    /** First-level administrative region (state, province), by name. */
    adminRegion: text("admin_region").notNull(),
    population: integer("population").notNull(),
    lat: doublePrecision("lat").notNull(),
    lng: doublePrecision("lng").notNull(),
    /**
     * IANA time zone ("Europe/Berlin") the city's opening hours are read in, from its coordinates
     * (time-zones.ts). Null only until migrate() backfills a city written without one.
     */
    timeZone: text("time_zone"),
    /** Lower-case other names the city is searched by ("bangalore" for Bengaluru). */
    aliases: text("aliases").array().notNull().default([]),
  },
  (t) => [index("cities_name_lower_idx").on(sql`lower(${t.name})`), index("cities_aliases_idx").using("gin", t.aliases)],
);

export type City = typeof cities.$inferSelect;
