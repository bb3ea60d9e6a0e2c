import { TRPCError } from "@trpc/server";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accounts, accountSessions, businesses, signInTokens } from "@directory/db";
import { addOwner } from "../../services/claims/ownership";
import { authenticateApiKey } from "../../services/access/api-keys";
import { startTestSmtpServer, type TestSmtpServer } from "../../services/mail/test-smtp-server";
import { createTestDatabase, SMALL_TEST_WORLD, type TestDatabase } from "../../testing";
import { accountCaller, newBrowser, PUBLIC_BASE_URL, signIn, signInTokenOf } from "./account-fixtures";

/** account.* through tRPC callers with a session cookie, a real SMTP server on loopback and a real database. */

let database: TestDatabase;
let smtp: TestSmtpServer;

beforeAll(async () => {
  database = await createTestDatabase({ seed: SMALL_TEST_WORLD });
  smtp = await startTestSmtpServer();
});

afterAll(async () => {
  await smtp?.close();
  await database?.destroy();
});

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(TRPCError);
  return (error as TRPCError).code;
}

describe("sign-in by email", () => {
  it("mails a link under PUBLIC_BASE_URL that opens a session once; the session token is hashed at rest", async () => {
    const browser = newBrowser();
    await accountCaller(database, smtp, browser).account.signIn.request({ email: "Ada@Example.org" });
    const mail = await smtp.nextMail("ada@example.org");
    expect(mail.text).toContain(`${PUBLIC_BASE_URL}/sign-in/magic-link/verify?token=`);
    const token = signInTokenOf(mail.text);
    await accountCaller(database, smtp, browser, { origin: null }).account.signIn.complete({ token });
    expect(browser.setCookies.join("\n")).toMatch(/HttpOnly/i);
    expect(browser.setCookies.join("\n")).toMatch(/SameSite=Lax/i);
    expect((await accountCaller(database, smtp, browser).account.me()).email).toBe("ada@example.org");

    const sessionCookie = [...browser.cookies.values()].join(" ");
    const stored = await database.db.select({ token: accountSessions.token }).from(accountSessions);
    for (const row of stored) expect(sessionCookie).not.toContain(row.token);
    const links = await database.db.select({ identifier: signInTokens.identifier }).from(signInTokens);
    for (const row of links) expect(row.identifier).not.toContain(token);

    expect(await refusal(accountCaller(database, smtp, newBrowser(), { origin: null }).account.signIn.complete({ token }))).toBe("UNAUTHORIZED");
  });

  it("marks the cookie Secure when the public base URL is https", async () => {
    const https = { publicBaseUrl: "https://directory.test", origin: "https://directory.test" };
    const browser = newBrowser();
    await accountCaller(database, smtp, browser, https).account.signIn.request({ email: "secure@example.org" });
    const token = signInTokenOf((await smtp.nextMail("secure@example.org")).text);
    await accountCaller(database, smtp, browser, https).account.signIn.complete({ token });
    expect(browser.setCookies.join("\n")).toMatch(/;\s*Secure/i);
    expect((await accountCaller(database, smtp, browser, https).account.me()).email).toBe("secure@example.org");
  });

  it("opens no session from another site's page", async () => {
    await accountCaller(database, smtp, newBrowser()).account.signIn.request({ email: "planted@example.org" });
    const token = signInTokenOf((await smtp.nextMail("planted@example.org")).text);
    const victim = newBrowser();
    expect(await refusal(accountCaller(database, smtp, victim, { origin: "https://evil.example" }).account.signIn.complete({ token }))).toBe("FORBIDDEN");
    expect(victim.cookies.size).toBe(0);
  });

  it("answers alike for a known and an unknown address", async () => {
    await signIn(database, smtp, newBrowser(), "known@example.org");
    const known = await accountCaller(database, smtp, newBrowser()).account.signIn.request({ email: "known@example.org" });
    const unknown = await accountCaller(database, smtp, newBrowser()).account.signIn.request({ email: "nobody@example.org" });
    expect(known).toEqual(unknown);
    await smtp.nextMail("known@example.org");
    await smtp.nextMail("nobody@example.org");
  });

  it("refuses an expired link", async () => {
    await accountCaller(database, smtp, newBrowser()).account.signIn.request({ email: "late@example.org" });
    const token = signInTokenOf((await smtp.nextMail("late@example.org")).text);
    await database.db.update(signInTokens).set({ expiresAt: new Date(Date.now() - 1000) });
    expect(await refusal(accountCaller(database, smtp, newBrowser(), { origin: null }).account.signIn.complete({ token }))).toBe("UNAUTHORIZED");
  });

  it("limits sign-in mails per address and per client address", async () => {
    const caller = (ip: string) => accountCaller(database, smtp, newBrowser(), { ip });
    for (let i = 0; i < 5; i += 1) await caller(`198.51.100.${i + 1}`).account.signIn.request({ email: "flood@example.org" });
    expect(await refusal(caller("198.51.100.99").account.signIn.request({ email: "flood@example.org" }))).toBe("TOO_MANY_REQUESTS");
    for (let i = 0; i < 20; i += 1) await caller("203.0.113.7").account.signIn.request({ email: `many${i}@example.org` });
    expect(await refusal(caller("203.0.113.7").account.signIn.request({ email: "one-more@example.org" }))).toBe("TOO_MANY_REQUESTS");
  });
});

describe("a session's changes", () => {
  it("need the service's Origin and the session's CSRF token", async () => {
    const browser = newBrowser();
    const csrfToken = await signIn(database, smtp, browser, "csrf@example.org");
    expect(await refusal(accountCaller(database, smtp, browser).account.keys.create({ label: "no token" }))).toBe("FORBIDDEN");
    expect(await refusal(accountCaller(database, smtp, browser, { csrfToken: "forged" }).account.keys.create({ label: "forged" }))).toBe("FORBIDDEN");
    const foreign = accountCaller(database, smtp, browser, { csrfToken, origin: "https://evil.example" });
    expect(await refusal(foreign.account.keys.create({ label: "foreign" }))).toBe("FORBIDDEN");
    expect(await accountCaller(database, smtp, browser).account.keys.list()).toEqual([]);
    await accountCaller(database, smtp, browser, { csrfToken }).account.keys.create({ label: "good" });
    expect((await accountCaller(database, smtp, browser).account.keys.list()).map((key) => key.label)).toEqual(["good"]);
  });

  it("are refused without a session", async () => {
    expect(await refusal(accountCaller(database, smtp, newBrowser()).account.me())).toBe("UNAUTHORIZED");
  });
});

describe("keys of an account", () => {
  it("are shown once, listed with their use, and never reachable from another account", async () => {
    const alice = newBrowser();
    const bob = newBrowser();
    const aliceCsrf = await signIn(database, smtp, alice, "alice@example.org");
    const bobCsrf = await signIn(database, smtp, bob, "bob@example.org");
    const created = await accountCaller(database, smtp, alice, { csrfToken: aliceCsrf }).account.keys.create({ label: "production" });
    expect(created.key).toMatch(/^bdk_dev_/);

    const key = await authenticateApiKey(database.db, created.key);
    expect(key).toMatchObject({ kind: "developer", onTrial: true });
    const [listed] = await accountCaller(database, smtp, alice).account.keys.list();
    expect(listed).toMatchObject({ id: created.id, label: "production", usedThisMonth: 0, monthlyLimit: 100 });
    expect(listed?.lastUsedAt).not.toBeNull();
    expect(JSON.stringify(listed)).not.toContain(created.key);

    expect(await accountCaller(database, smtp, bob).account.keys.list()).toEqual([]);
    expect(await refusal(accountCaller(database, smtp, bob, { csrfToken: bobCsrf }).account.keys.revoke({ id: created.id }))).toBe("NOT_FOUND");
    expect(await refusal(accountCaller(database, smtp, bob, { csrfToken: aliceCsrf }).account.keys.revoke({ id: created.id }))).toBe("FORBIDDEN");
    await authenticateApiKey(database.db, created.key);

    const aliceSessions = await accountCaller(database, smtp, alice).account.sessions.list();
    expect(await refusal(accountCaller(database, smtp, bob, { csrfToken: bobCsrf }).account.sessions.end({ id: aliceSessions[0]!.id }))).toBe("NOT_FOUND");

    await accountCaller(database, smtp, alice, { csrfToken: aliceCsrf }).account.keys.revoke({ id: created.id });
    await expect(authenticateApiKey(database.db, created.key)).rejects.toMatchObject({ code: "INVALID_API_KEY" });
  });

  it("stop at once, with the account's sessions, when the account is disabled", async () => {
    const browser = newBrowser();
    const csrfToken = await signIn(database, smtp, browser, "gone@example.org");
    const { key } = await accountCaller(database, smtp, browser, { csrfToken }).account.keys.create({ label: "soon gone" });
    await database.db.update(accounts).set({ disabledAt: new Date() }).where(eq(accounts.email, "gone@example.org"));
    await expect(authenticateApiKey(database.db, key)).rejects.toMatchObject({ code: "INVALID_API_KEY" });
    expect(await refusal(accountCaller(database, smtp, browser).account.me())).toBe("UNAUTHORIZED");
  });
});

describe("an account's businesses", () => {
  it("lists the listings the person owns, and no one else's", async () => {
    const owner = newBrowser();
    const stranger = newBrowser();
    await signIn(database, smtp, owner, "owner@example.org");
    await signIn(database, smtp, stranger, "stranger@example.org");
    const [account] = await database.db.select({ id: accounts.id }).from(accounts).where(eq(accounts.email, "owner@example.org"));
    const [business] = await database.db.select({ id: businesses.id, slug: businesses.slug }).from(businesses).limit(1);
    await database.db.transaction((tx) => addOwner(tx, { businessId: business!.id, accountId: account!.id, method: "operator", decidedBy: "operator" }));
    const listed = await accountCaller(database, smtp, owner).account.businesses.list();
    expect(listed.map((item) => [item.slug, item.method])).toEqual([[business!.slug, "operator"]]);
    expect(await accountCaller(database, smtp, stranger).account.businesses.list()).toEqual([]);
  });
});
