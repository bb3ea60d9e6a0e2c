export * from "./schema/index";
export {
  choreDatabaseOptionsFromEnv,
  createDatabase,
  forChores,
  databaseOptionsFromEnv,
  databaseTimeoutsFromEnv,
  DEFAULT_DATABASE_TIMEOUTS,
  type Database,
  type DatabaseOptions,
  type DatabaseTimeouts,
  type Db,
} from "./client";
export { migrate } from "./migrate";
export { postgresTarget, waitForDatabase } from "./wait-for-database";
export { executePrepared, preparedQuery, rowsOf } from "./rows";
export {
  backfillListingFreshness,
  isVouched,
  listingFreshness,
  staleAfterOf,
  staleCountAt,
  USEFUL_LIFE_DAYS,
  type HeldClaim,
  type ListingFreshness,
} from "./claim-freshness";
