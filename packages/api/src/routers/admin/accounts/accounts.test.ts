import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accounts, accountSessions } from "@directory/db";
import { createContext } from "../../../context";
import { createCaller } from "../../../root";
import { authenticateApiKey, createApiKey } from "../../../services/access/api-keys";
import { createAccountKey, revokeAccountKey } from "../../../services/accounts/account-keys";
import { currentPlanOf, ensureAccount } from "../../../services/accounts/plans";
import { createTestDatabase, type TestDatabase } from "../../../testing";

/** accounts.* (the operator's account procedures) on the tRPC door, in process, through a real database. */

let database: TestDatabase;
let adminKey: string;
let developerKey: string;
const callerWith = (key: string) =>
  createCaller(createContext({ db: database.db, publicBaseUrl: "http://directory.test", authorizationHeader: `Bearer ${key}`, clientIp: "203.0.113.20" }));
const admin = () => callerWith(adminKey);

beforeAll(async () => {
  database = await createTestDatabase();
  adminKey = (await createApiKey(database.db, { kind: "admin" })).key;
  developerKey = (await createApiKey(database.db, { kind: "developer", label: "made by an operator" })).key;
});
afterAll(async () => {
  await database?.destroy();
});

/** An account as sign-in would leave it: the account row, keys made on its developer page, and signed-in browsers. */
async function accountWith(email: string, options: { keys?: number; sessions?: number; expiredSessions?: number } = {}) {
  const account = await ensureAccount(database.db, email);
  const keys = [];
  for (let i = 0; i < (options.keys ?? 0); i++) keys.push(await createAccountKey(database.db, account.id, `key ${i}`));
  const session = (expiresAt: Date) => ({ token: randomUUID(), userId: account.id, expiresAt });
  const open = Array.from({ length: options.sessions ?? 0 }, () => session(new Date(Date.now() + 86_400_000)));
  const expired = Array.from({ length: options.expiredSessions ?? 0 }, () => session(new Date(Date.now() - 86_400_000)));
  if (open.length + expired.length > 0) await database.db.insert(accountSessions).values([...open, ...expired]);
  return { ...account, keys };
}

const sessionsOf = (accountId: string) => database.db.select().from(accountSessions).where(eq(accountSessions.userId, accountId));
const nextYear = new Date().getUTCFullYear() + 1;

describe("accounts.list and accounts.show", () => {
  it("lists accounts newest first with their plan and active keys; shows one with its keys and open sessions", async () => {
    const older = await accountWith("older@example.org", { keys: 2, sessions: 1, expiredSessions: 1 });
    await revokeAccountKey(database.db, older.id, older.keys[0]!.id);
    await database.db
      .update(accounts)
      .set({ createdAt: new Date("2026-01-01T00:00:00Z") })
      .where(eq(accounts.id, older.id));
    await accountWith("newer@example.org");

    const listed = await admin().accounts.list({});
    const emails = listed.map((row) => row.email);
    expect(emails.indexOf("newer@example.org")).toBeLessThan(emails.indexOf("older@example.org"));
    expect(listed.find((row) => row.email === "older@example.org")).toEqual({
      email: "older@example.org",
      createdAt: "2026-01-01T00:00:00.000Z",
      disabledAt: null,
      plan: null,
      activeKeys: 1,
    });
    expect(await admin().accounts.list({ limit: 1 })).toHaveLength(1);

    const shown = await admin().accounts.show({ email: "Older@Example.org" });
    expect(shown).toMatchObject({ email: "older@example.org", activeKeys: 1, openSessions: 1, plan: null });
    expect(shown.keys.map((key) => [key.id, key.revokedAt === null])).toEqual([
      [older.keys[1]!.id, true],
      [older.keys[0]!.id, false],
    ]);
    expect(shown.keys[1]).toMatchObject({ label: "key 0", visiblePrefix: expect.stringMatching(/^bdk_dev_/), lastUsedAt: null });
    expect(JSON.stringify(shown)).not.toContain(older.keys[1]!.key);
  });

  it("answers NOT_FOUND for an address without an account", async () => {
    await expect(admin().accounts.show({ email: "nobody@example.org" })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(admin().accounts.disable({ email: "nobody@example.org" })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});

describe("accounts.grantPlan", () => {
  it("grants the developer plan through the end of the given day (UTC): the account's keys leave the trial", async () => {
    const account = await accountWith("granted@example.org", { keys: 1 });
    expect((await authenticateApiKey(database.db, account.keys[0]!.key)).onTrial).toBe(true);

    const granted = await admin().accounts.grantPlan({ email: "GRANTED@example.org", until: `${nextYear}-01-31` });
    const plan = { name: "developer", status: "active", activeUntil: `${nextYear}-01-31T23:59:59.999Z`, source: "operator" };
    expect(granted).toMatchObject({ email: "granted@example.org", plan, activeKeys: 1 });
    expect(await currentPlanOf(database.db, account.id)).toEqual(plan);
    expect(await authenticateApiKey(database.db, account.keys[0]!.key)).toMatchObject({ accountId: account.id, onTrial: false });
    expect((await admin().accounts.list({})).find((row) => row.email === "granted@example.org")?.plan).toEqual(plan);
  });

  it("makes the account of an address that has not signed in yet", async () => {
    const granted = await admin().accounts.grantPlan({ email: "first-time@example.org", until: `${nextYear}-06-30` });
    expect(granted).toMatchObject({ email: "first-time@example.org", activeKeys: 0, disabledAt: null, plan: { status: "active" } });
  });

  it("refuses a day in the past, a day not on the calendar, another format, and a bad address (400)", async () => {
    for (const until of ["2020-01-01", `${nextYear}-02-30`, `31.01.${nextYear}`, `${nextYear}-1-31`, ""]) {
      await expect(admin().accounts.grantPlan({ email: "past@example.org", until }), until).rejects.toMatchObject({ code: "BAD_REQUEST" });
    }
    await expect(admin().accounts.grantPlan({ email: "not an address", until: `${nextYear}-01-31` })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(admin().accounts.grantPlan({ email: `${"a".repeat(250)}@example.org`, until: `${nextYear}-01-31` })).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
    await expect(admin().accounts.show({ email: "past@example.org" })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});

describe("accounts.disable", () => {
  it("ends the account's sessions and refuses its keys; operator keys keep working; disabling again keeps the first time", async () => {
    const account = await accountWith("disabled@example.org", { keys: 2, sessions: 2 });
    expect(await sessionsOf(account.id)).toHaveLength(2);

    const disabled = await admin().accounts.disable({ email: "disabled@example.org" });
    expect(disabled).toMatchObject({ email: "disabled@example.org", disabledAt: expect.any(String), activeKeys: 2 });
    expect(await sessionsOf(account.id)).toHaveLength(0);
    for (const key of account.keys) {
      await expect(authenticateApiKey(database.db, key.key)).rejects.toMatchObject({ code: "INVALID_API_KEY" });
    }
    expect(await authenticateApiKey(database.db, developerKey)).toMatchObject({ accountId: null, onTrial: false });

    const again = await admin().accounts.disable({ email: "disabled@example.org" });
    expect(again.disabledAt).toBe(disabled.disabledAt);
    expect(await admin().accounts.show({ email: "disabled@example.org" })).toMatchObject({ disabledAt: disabled.disabledAt, openSessions: 0 });
  });
});

describe("apiKeys.* name the account a key belongs to", () => {
  it("lists and revokes an account's key with its email, an operator's key with null", async () => {
    const account = await accountWith("keys-owner@example.org", { keys: 1 });
    const created = await admin().apiKeys.create({ kind: "partner" });
    expect(created.apiKey.accountEmail).toBeNull();

    const listed = await admin().apiKeys.list({});
    expect(listed.find((key) => key.id === account.keys[0]!.id)?.accountEmail).toBe("keys-owner@example.org");
    expect(listed.find((key) => key.id === created.apiKey.id)?.accountEmail).toBeNull();
    expect((await admin().apiKeys.revoke({ id: account.keys[0]!.id })).accountEmail).toBe("keys-owner@example.org");
  });
});

describe("only admin keys reach the account procedures", () => {
  it("refuses a developer key on each (FORBIDDEN)", async () => {
    const developer = callerWith(developerKey);
    const until = `${nextYear}-01-31`;
    await expect(developer.accounts.list({})).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(developer.accounts.show({ email: "older@example.org" })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(developer.accounts.grantPlan({ email: "sneaky@example.org", until })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(developer.accounts.disable({ email: "older@example.org" })).rejects.toMatchObject({ code: "FORBIDDEN" });
    const [sneaky] = await database.db.select().from(accounts).where(eq(accounts.email, "sneaky@example.org"));
    expect(sneaky).toBeUndefined();
    expect((await admin().accounts.show({ email: "older@example.org" })).disabledAt).toBeNull();
  });
});
