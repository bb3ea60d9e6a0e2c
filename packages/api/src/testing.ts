import { testDatabaseFactory } from "@directory/db/testing";
import { seedDemoWorld } from "./seed-demo-world";

export { SMALL_TEST_WORLD, type TestDatabase, type TestDatabaseOptions } from "@directory/db/testing";

/**
 * Test databases holding the demo world as the server seeds it, documents, mentions and
 * visibility scores included (packages/db's own test databases hold only its data seed).
 */
export const createTestDatabase = testDatabaseFactory("demo", seedDemoWorld);

/** The real OpenStreetMap extracts shipped in fixtures/osm, for the import tests in every package. */
export { listingOfRecord, OSM_CHANGE_FILES, OSM_EXTRACTS } from "./services/registry/osm/test-extracts";
/** OSM PBF files built in code, well-formed or broken on purpose, for the reader's and the CLI's tests. */
export { fileBlock, headerBlock, osmPbfFile, rawZlibBlob, zlibBlob } from "./services/registry/osm/pbf-test-files";

/** Where-when fixtures: a local time in a zone as an ISO instant, and a haversine apart from the SQL under test. */
export { atLocal, haversineKm } from "./services/where-when/near-fixtures";

/** A loopback SMTP server that collects what the mailer sends, for the mail and sign-in tests. */
export { startTestSmtpServer, type ReceivedMail, type TestSmtpServer } from "./services/mail/test-smtp-server";
export { signedStripeEvent, startStripeStandIn, stripeSubscription, type StripeStandIn } from "./services/billing/stripe-stand-in";
/** A loopback OpenAI-compatible chat completions server standing in for the engines of citation checks. */
export { standInSettings, startEngineStandIn, type EngineStandIn, type StandInReply } from "./services/citations/engine-stand-in";
