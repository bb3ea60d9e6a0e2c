/**
 * What runs the server in-process (the test harness, testing.ts). build.mjs bundles it to
 * dist/server-modules.js too, so the whole suite can run against the built output
 * (TEST_SERVER=dist), the code `start` runs, not only against the TypeScript sources.
 */
export { createApp } from "./app";
export { createMetrics } from "./metrics";
export { answerClientErrorsWithJson } from "./request-hygiene";
export { createLogger } from "./logger";
export { startWebhookWorker } from "./webhooks/worker";
export { listenHttp, startServer } from "./start";
export { readConfig } from "./config";
export { createMailer, createStripeProvider } from "@directory/api";
