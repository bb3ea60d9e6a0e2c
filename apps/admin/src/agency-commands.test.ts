import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountPlans, accounts, agencies, agencyBusinessAccess, agencyMembers, businesses } from "@directory/db";
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

/** An agency as agencies.ts makes one: its own account (which holds its plan), and its people. */
async function addAgency(slug: string, name: string, createdAt: Date) {
  const db = server.database.db;
  const [holder] = await db
    .insert(accounts)
    .values({ email: `agency-${slug}@agencies.invalid`, name })
    .returning({ id: accounts.id });
  const [agency] = await db.insert(agencies).values({ slug, name, accountId: holder!.id, createdAt }).returning({ id: agencies.id });
  return { agencyId: agency!.id, holderId: holder!.id };
}

describe("directory-admin agencies list (through the typed SDK, against a live server)", () => {
  it("lists agencies newest first with their members, businesses and plan, counting only current ones", async () => {
    const db = server.database.db;
    const people = await db
      .insert(accounts)
      .values([{ email: "cli-agency-a@example.org" }, { email: "cli-agency-b@example.org" }, { email: "cli-agency-gone@example.org" }])
      .returning({ id: accounts.id });
    const listings = await db.select({ id: businesses.id }).from(businesses).limit(2);
    expect(listings).toHaveLength(2);

    const busy = await addAgency("cli-busy-agency", "Busy Agency", new Date("2030-01-02T00:00:00Z"));
    const quiet = await addAgency("cli-quiet-agency", "Quiet Agency", new Date("2030-01-01T00:00:00Z"));
    await db.insert(agencyMembers).values([
      { agencyId: busy.agencyId, accountId: people[0]!.id, role: "owner" },
      { agencyId: busy.agencyId, accountId: people[1]!.id, role: "member" },
      { agencyId: busy.agencyId, accountId: people[2]!.id, role: "member", removedAt: new Date() },
      { agencyId: quiet.agencyId, accountId: people[0]!.id, role: "owner" },
    ]);
    await db.insert(agencyBusinessAccess).values([
      { agencyId: busy.agencyId, businessId: listings[0]!.id },
      { agencyId: busy.agencyId, businessId: listings[1]!.id, withdrawnAt: new Date() },
    ]);
    const until = new Date("2031-01-31T23:59:59.999Z");
    await db.insert(accountPlans).values({ accountId: busy.holderId, name: "developer", status: "active", activeUntil: until, source: "operator" });

    const listed = JSON.parse((await admin("agencies", "list", "--json")).stdout) as { slug: string }[];
    expect(listed.map((agency) => agency.slug).slice(0, 2)).toEqual(["cli-busy-agency", "cli-quiet-agency"]);
    expect(listed[0]).toEqual({
      slug: "cli-busy-agency",
      name: "Busy Agency",
      createdAt: "2030-01-02T00:00:00.000Z",
      members: 2,
      businesses: 1,
      plan: { name: "developer", status: "active", activeUntil: until.toISOString(), source: "operator" },
    });
    expect(listed[1]).toMatchObject({ slug: "cli-quiet-agency", members: 1, businesses: 0, plan: null });

    const lines = (await admin("agencies", "list", "--limit", "1")).stdout.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]!.split("\t")).toEqual([
      "cli-busy-agency",
      "Busy Agency",
      "2030-01-02T00:00:00.000Z",
      "2 members",
      "1 businesses",
      `developer active until ${until.toISOString()} (operator)`,
    ]);
  });

  it("refuses a limit past the bound with the server's 400", async () => {
    await expect(admin("agencies", "list", "--limit", "501")).rejects.toMatchObject({ stderr: expect.stringMatching(/limit.*HTTP 400/) });
  });
});
