import { defineConfig } from "vitest/config";

const ALL_TESTS = ["packages/*/src/**/*.test.ts", "apps/*/src/**/*.test.ts"];

/**
 * Test files whose outcome does not depend on the database driver: pure units, the deployment,
 * image and SDK package checks, the docs' examples, the browser tests, and servers on their own
 * embedded database. They form the "unit" project, which CI runs once; every other file is in
 * "database", which CI runs on PGlite and again on PostgreSQL. A file missing here runs in both
 * passes: the safe default.
 */
const DRIVER_INDEPENDENT = [
  "packages/db/src/time-zones.test.ts",
  "packages/sdk/src/client.test.ts",
  "packages/api/src/procedure-layout.test.ts",
  "packages/api/src/services/access/client-ip.test.ts",
  "packages/api/src/services/feed/ascii-json.test.ts",
  "packages/api/src/services/registry/osm/*.test.ts",
  "packages/api/src/services/webhooks/outbound-address*.test.ts",
  "packages/api/src/services/where-when/opening-hours-time.test.ts",
  "packages/api/src/services/where-when/where-when-params.test.ts",
  "apps/server/src/graphql/output-types.test.ts",
  "apps/server/src/graphql/graphql-over-http.test.ts",
  "apps/server/src/mcp/mcp-outputs.test.ts",
  "apps/server/src/start-signals.test.ts",
  "apps/server/src/shutdown.test.ts",
  "apps/server/src/deployment.test.ts",
  "apps/server/src/sdk-package.test.ts",
  "apps/server/src/docker-image.test.ts",
  "apps/server/src/docs-try-it-out.test.ts",
  "apps/server/src/readme-examples.test.ts",
  "apps/*/src/env.test.ts",
  "apps/server/src/*.browser.test.ts",
];

export default defineConfig({
  test: {
    globalSetup: ["vitest.global-setup.ts"],
    pool: "forks",
    // Two cores: more workers only contend for them.
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 180_000,
    projects: [
      { extends: true, test: { name: "database", include: ALL_TESTS, exclude: DRIVER_INDEPENDENT } },
      { extends: true, test: { name: "unit", include: DRIVER_INDEPENDENT } },
    ],
  },
});
