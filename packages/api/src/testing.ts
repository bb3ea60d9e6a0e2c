import { testDatabaseFactory } from "@directory/db/testing";
import { seedDemoWorld } from "./seed-demo-world";

export { type TestDatabase, type TestDatabaseOptions } from "@directory/db/testing";

/**
 * Test databases holding the demo world as the server seeds it, documents, mentions and
 * visibility scores included (packages/db's own test databases hold only its data seed).
 */
export const createTestDatabase = testDatabaseFactory(seedDemoWorld);
