import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { apiKeys, businesses } from "@directory/db";
import { SMALL_TEST_WORLD, startTestServer, type TestServer } from "@directory/server/testing";

const run = promisify(execFile);
// The command as installed: plain node on the bundle, built first when a source changed.
const bin = fileURLToPath(new URL("../bin/directory-admin.mjs", import.meta.url));

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ seed: SMALL_TEST_WORLD });
});
afterAll(async () => {
  await server?.close();
});

function admin(...args: string[]) {
  return run(process.execPath, [bin, "--url", server.url, "--key", server.adminKey, ...args], { env: { ...process.env, DIRECTORY_ADMIN_KEY: "" } });
}

describe("pnpm admin keys (through the typed SDK, against a live server)", () => {
  it("creates a key, lists it by prefix only, revokes it and it stops working at once", async () => {
    const created = JSON.parse((await admin("keys", "create", "--kind", "developer", "--label", "cli test", "--json")).stdout);
    expect(created.key).toMatch(/^bdk_dev_/);
    const [stored] = await server.database.db.select().from(apiKeys).where(eq(apiKeys.id, created.apiKey.id));
    expect(stored?.keyHash).not.toContain(created.key);
    expect(JSON.stringify(stored)).not.toContain(created.key);

    const listed = (await admin("keys", "list")).stdout;
    expect(listed).toContain(created.apiKey.id);
    expect(listed).not.toContain(created.key);

    const [slug] = await server.database.db.select({ slug: businesses.slug }).from(businesses).limit(1);
    const history = `/api/v2/entity-profile?slug=${slug?.slug}&history=true`;
    expect((await fetch(`${server.url}${history}`, { headers: { authorization: `Bearer ${created.key}` } })).status).toBe(200);
    await admin("keys", "revoke", created.apiKey.id);
    expect((await fetch(`${server.url}${history}`, { headers: { authorization: `Bearer ${created.key}` } })).status).toBe(401);
  });

  it("prints --json output alone on stdout through the documented command (npx -y pnpm@10.34.8 exec directory-admin, docs/owner-edits.md)", async () => {
    const repoRoot = fileURLToPath(new URL("../../..", import.meta.url));
    const args = [
      "-y",
      "pnpm@10.34.8",
      "exec",
      "directory-admin",
      "--url",
      server.url,
      "--key",
      server.adminKey,
      "keys",
      "create",
      "--kind",
      "developer",
      "--json",
    ];
    const { stdout } = await run("npx", args, { cwd: repoRoot, env: { ...process.env, DIRECTORY_ADMIN_KEY: "" } });
    expect(JSON.parse(stdout).key).toMatch(/^bdk_dev_/);
  });

  it("binds a business key to its business and refuses a binding for other kinds", async () => {
    const [business] = await server.database.db.select({ id: businesses.id, slug: businesses.slug }).from(businesses).limit(1);
    const created = JSON.parse((await admin("keys", "create", "--kind", "business", "--business", business!.slug, "--json")).stdout);
    expect(created.apiKey.businessId).toBe(business!.id);
    await expect(admin("keys", "create", "--kind", "business")).rejects.toMatchObject({ stderr: expect.stringMatching(/bound to/) });
    await expect(admin("keys", "create", "--kind", "partner", "--business", business!.slug)).rejects.toMatchObject({
      stderr: expect.stringMatching(/cannot be bound/),
    });
  });

  it("refuses non-admin keys with a clear message", async () => {
    const developer = JSON.parse((await admin("keys", "create", "--kind", "developer", "--json")).stdout);
    const result = run(process.execPath, [bin, "--url", server.url, "--key", developer.key, "keys", "list"]);
    await expect(result).rejects.toMatchObject({ stderr: expect.stringMatching(/admin API key.*FORBIDDEN.*403/) });
  });
});
