import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { accounts, accountSessions, apiKeys } from "@directory/db";
import { createApiKey } from "@directory/api";
import { createDirectoryClient } from "@directory/sdk";
import { startTestServer, type TestServer } from "@directory/server/testing";

const run = promisify(execFile);
// The command as installed: plain node on the bundle, built first when a source changed.
const bin = fileURLToPath(new URL("../bin/directory-admin.mjs", import.meta.url));

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

function admin(...args: string[]) {
  return run(process.execPath, [bin, "--url", server.url, "--key", server.adminKey, ...args], { env: { ...process.env, DIRECTORY_ADMIN_KEY: "" } });
}

/** A key as the account's developer page makes it: a developer key that names its account. */
async function accountKey(accountId: string) {
  const created = await createApiKey(server.database.db, { kind: "developer", label: "from the developer page" });
  await server.database.db.update(apiKeys).set({ accountId }).where(eq(apiKeys.id, created.apiKey.id));
  return created;
}

const keyWorks = (key: string) =>
  createDirectoryClient({ baseUrl: server.url, apiKey: key, retry: false })
    .apiKeys.confirmKey.query()
    .then(
      () => true,
      () => false,
    );

describe("directory-admin accounts (through the typed SDK, against a live server)", () => {
  it("grants a plan, lists and shows the account, names it in keys list, and disables it: sessions end, its key is refused", async () => {
    const email = "cli-account@example.org";
    const until = `${new Date().getUTCFullYear() + 1}-01-31`;
    const granted = JSON.parse((await admin("accounts", "grant-plan", email, "--until", until, "--json")).stdout);
    expect(granted.plan).toMatchObject({ name: "developer", status: "active", activeUntil: `${until}T23:59:59.999Z` });

    const [account] = await server.database.db.select().from(accounts).where(eq(accounts.email, email));
    const key = await accountKey(account!.id);
    const operatorKey = await createApiKey(server.database.db, { kind: "developer", label: "an operator's" });
    await server.database.db.insert(accountSessions).values({ token: randomUUID(), userId: account!.id, expiresAt: new Date(Date.now() + 86_400_000) });
    expect(await keyWorks(key.key)).toBe(true);

    const listed = JSON.parse((await admin("accounts", "list", "--json")).stdout);
    expect(listed).toContainEqual(expect.objectContaining({ email, disabledAt: null, plan: granted.plan, activeKeys: 1 }));

    const shown = (await admin("accounts", "show", email)).stdout;
    expect(shown).toMatch(/open sessions: 1/);
    expect(shown).toContain(key.apiKey.visiblePrefix);
    expect(shown).not.toContain(key.key);

    const keyLines = (await admin("keys", "list")).stdout.split("\n");
    expect(keyLines.find((line) => line.startsWith(key.apiKey.id))?.split("\t")).toContain(email);
    expect(keyLines.find((line) => line.startsWith(operatorKey.apiKey.id))?.split("\t")[4]).toBe("-");

    expect((await admin("accounts", "disable", email)).stdout).toMatch(new RegExp(`^disabled ${email} at `));
    expect(await server.database.db.select().from(accountSessions).where(eq(accountSessions.userId, account!.id))).toHaveLength(0);
    expect(await keyWorks(key.key)).toBe(false);
    expect(await keyWorks(operatorKey.key)).toBe(true);
  });

  it("refuses a plan end that is not a calendar day with a clear message", async () => {
    await expect(admin("accounts", "grant-plan", "cli-account@example.org", "--until", "2027-02-30")).rejects.toMatchObject({
      stderr: expect.stringMatching(/until: Expected a calendar day as YYYY-MM-DD.*INVALID_INPUT, HTTP 400/),
    });
  });
});
