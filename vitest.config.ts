import { defineConfig } from "vitest/config";

const ALL_TESTS = ["packages/*/src/**/*.test.ts", "apps/*/src/**/*.test.ts"];

/**
 * Test files whose outcome does not depend on the database driver. They form the project
 * "driver-independent", which CI runs once; every other file is in "database", which CI runs on
 * PGlite and again on PostgreSQL (against the built server). A file missing here runs in both
 * passes: the safe default. What belongs here:
 * - pure units, and the deployment, image, SDK package and documentation checks;
 * - servers on an embedded database of their own, whatever the pass (shutdown, the admin import);
 * - the doors' own behaviour (HTTP conventions, input hygiene, MCP, GraphQL, pages, the admin CLI
 *   through the SDK): the procedures and services under them are tested on both drivers.
 */
const DRIVER_INDEPENDENT = [
  "packages/db/src/time-zones.test.ts",
  "packages/sdk/src/client.test.ts",
  "packages/api/src/procedure-layout.test.ts",
  "packages/api/src/services/access/client-ip.test.ts",
  "packages/api/src/services/feed/ascii-json.test.ts",
  "packages/api/src/services/mail/mailer.test.ts",
  "packages/api/src/services/billing/stripe-provider.test.ts",
  "packages/api/src/services/citations/engines.test.ts",
  "packages/api/src/services/registry/osm/*.test.ts",
  "packages/api/src/services/webhooks/outbound-address*.test.ts",
  "packages/api/src/services/where-when/opening-hours-time.test.ts",
  "packages/api/src/services/where-when/where-when-params.test.ts",
  "apps/*/src/env.test.ts",
  "apps/admin/src/*.test.ts",
  "apps/server/src/deployment.test.ts",
  "apps/server/src/docker-image.test.ts",
  "apps/server/src/compose-topology.test.ts",
  "apps/server/src/built-apps.test.ts",
  "apps/server/src/sdk-package.test.ts",
  "apps/server/src/sdk.test.ts",
  "apps/server/src/readme-examples.test.ts",
  "apps/server/src/docs-try-it-out.test.ts",
  "apps/server/src/*.browser.test.ts",
  "apps/server/src/start-signals.test.ts",
  "apps/server/src/shutdown.test.ts",
  "apps/server/src/http-conventions.test.ts",
  "apps/server/src/query-input.test.ts",
  "apps/server/src/fuzz.security.test.ts",
  "apps/server/src/input-rules.security.test.ts",
  "apps/server/src/guards-input.security.test.ts",
  "apps/server/src/silent-sockets.security.test.ts",
  "apps/server/src/pages*.test.ts",
  "apps/server/src/owner-dashboard-pages.test.ts",
  "apps/server/src/agency-pages.test.ts",
  "apps/server/src/dashboard-pages-access.test.ts",
  "apps/server/src/page-view-limit.test.ts",
  "apps/server/src/mcp/*.test.ts",
  "apps/server/src/graphql/*.test.ts",
];

export default defineConfig({
  test: {
    globalSetup: ["vitest.global-setup.ts"],
    pool: "forks",
    // Two cores: more workers only contend for them.
    maxWorkers: 2,
    // A worker runs file after file in one process, so the server's modules load once per worker,
    // not once per file. Each file still gets its own database and server, and leaves no state
    // behind (timers restored, servers and databases closed in afterAll).
    isolate: false,
    testTimeout: 60_000,
    hookTimeout: 180_000,
    projects: [
      { extends: true, test: { name: "database", include: ALL_TESTS, exclude: DRIVER_INDEPENDENT } },
      { extends: true, test: { name: "driver-independent", include: DRIVER_INDEPENDENT } },
    ],
  },
});
