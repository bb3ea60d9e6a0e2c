import { doublePrecision, index, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { businesses } from "./businesses";

/**
 * Which business each record of a registry (an OpenStreetMap element, ...) became. A re-import
 * diffs against this: a known record updates its business, a new one adds a business, and a record
 * of the same source inside the extract's area that is no longer there takes its business out of
 * service (removed_from_source). The position is the registry's, so an owner moving the pin does
 * not move the record out of the area it is checked in. A record whose id the source changed (an
 * extract renumbered, a node redrawn as a way) is matched by its name and position instead.
 */
export const registryRecords = pgTable(
  "registry_records",
  {
    /** The import's source name, e.g. "openstreetmap". */
    source: text("source").notNull(),
    /** The record's id in the source, e.g. "node/123". */
    recordId: text("record_id").notNull(),
    /** Several records may be one business (a shop drawn as a node and as its building): see sameAs. */
    businessId: uuid("business_id")
      .notNull()
      .references(() => businesses.id),
    /** The name as the source gave it last: how a renumbered extract's records are matched to the ones we have. */
    name: text("name").notNull(),
    lat: doublePrecision("lat").notNull(),
    lng: doublePrecision("lng").notNull(),
    /** When the source last changed the record. */
    observedAt: timestamp("observed_at", { withTimezone: true }).notNull(),
    /** Set while the record is missing from the source's latest extract of its area. */
    removedAt: timestamp("removed_at", { withTimezone: true }),
    /**
     * Set on a second id of a business: the record of the same source that stands for it (its
     * facts fill the business's); null on the record that does. A second id counts as listed, and
     * alone it never takes the business out of service.
     */
    sameAs: text("same_as"),
  },
  (t) => [
    primaryKey({ columns: [t.source, t.recordId] }),
    index("registry_records_area_idx").on(t.source, t.lat, t.lng),
    index("registry_records_business_idx").on(t.businessId),
  ],
);

export type RegistryRecordRow = typeof registryRecords.$inferSelect;
