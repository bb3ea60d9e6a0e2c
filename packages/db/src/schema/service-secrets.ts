import { customType, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/** Raw bytes: postgres-js reads a bytea as a Buffer, PGlite as a Uint8Array; both are handed on as a Buffer. */
const bytes = customType<{ data: Buffer; driverData: Uint8Array }>({
  dataType: () => "bytea",
  fromDriver: (value) => Buffer.from(value),
});

/**
 * Random keys the service makes for itself, one per purpose (`name`), for what needs a key but no
 * operator: every instance on the database reads the same one, so none needs configuring. Made on
 * first use (services/shared/service-secrets.ts); never sent to a client.
 */
export const serviceSecrets = pgTable("service_secrets", {
  name: text("name").primaryKey(),
  secret: bytes("secret").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});
