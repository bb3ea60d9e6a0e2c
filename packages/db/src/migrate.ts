import path from "node:path";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import type { PgliteDatabase } from "drizzle-orm/pglite";
import type { PostgresJsDatabase } from "drizzle-orm/postgres-js";
import type { Database } from "./client";
import { dbPackageDir } from "./package-dir";
import { backfillCityTimeZones } from "./time-zones";
import { backfillListingFreshness } from "./claim-freshness";

/**
 * Applies the committed drizzle-kit migrations; the same files on PGlite and PostgreSQL. Then
 * the backfills SQL cannot do: a city's time zone comes from its coordinates through a JS
 * lookup (time-zones.ts), so cities from before the time_zone column get theirs here.
 */
export async function migrate(database: Database): Promise<void> {
  // From the package, not from import.meta.url: bundled, that is apps/server/dist/main.js.
  const migrationsFolder = path.join(dbPackageDir(), "migrations");
  if (database.driver === "pglite") {
    await migratePglite(database.db as unknown as PgliteDatabase, { migrationsFolder });
  } else {
    await migratePostgres(database.db as unknown as PostgresJsDatabase, { migrationsFolder });
  }
  await backfillCityTimeZones(database.db);
  // A database from before the listing freshness columns (migration 0022) gets them from its claims.
  await backfillListingFreshness(database.db);
}
