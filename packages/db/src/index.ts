export * from "./schema/index";
export {
  createDatabase,
  forChores,
  DEFAULT_DATABASE_TIMEOUTS,
  type Database,
  type DatabaseOptions,
  type DatabaseTimeouts,
  type Db,
  type TransactionPooler,
} from "./client";
export {
  databaseEnvironment,
  databaseOptionsOf,
  databaseTimeoutsOf,
  EnvironmentError,
  nonNegativeInteger,
  onOff,
  optionalText,
  parseEnvironment,
  text,
  transactionPoolerOf,
  url,
  type DatabaseEnvironment,
} from "./env";
export { migrate } from "./migrate";
export { postgresTarget, waitForDatabase } from "./wait-for-database";
export { executePrepared, preparedQuery, rowsOf } from "./rows";
export { perDatabase } from "./per-database";
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
export { copyColumnOut, CopyBinaryFields, rowsAsSent, runsOnPostgres, sentText, type SentValue } from "./raw-reads";
export { ReadReplicas, DEFAULT_READ_REPLICA_SETTINGS, type ReadReplicaSettings, type ReplicaState, type ReplicaStatus } from "./replicas/read-replicas";
export { openReadReplicas, type ReadReplicaOptions } from "./replicas/open-read-replicas";
export { parseWalPosition, type WalPosition } from "./replicas/wal-position";
