export * from "./schema/index";
export { createDatabase, databaseOptionsFromEnv, databaseTimeoutsFromEnv, DEFAULT_DATABASE_TIMEOUTS, type Database, type DatabaseOptions, type DatabaseTimeouts, type Db } from "./client";
export { migrate } from "./migrate";
export { seedDemoWorld, isDatabaseEmpty, DEMO_BUSINESS_COUNT, type SeedOptions } from "./seed/index";
