import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["packages/*/src/**/*.test.ts", "apps/*/src/**/*.test.ts"],
    globalSetup: ["vitest.global-setup.ts"],
    pool: "forks",
    // Two cores: more workers only contend for them while each builds its template database.
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 180_000,
  },
});
