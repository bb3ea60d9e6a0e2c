export * from "./schema/index";
export { createDatabase, databaseOptionsFromEnv, type Database, type DatabaseOptions, type Db } from "./client";
export { migrate } from "./migrate";
export { seedDemoWorld, isDatabaseEmpty, DEMO_BUSINESS_COUNT, type SeedOptions } from "./seed/index";
