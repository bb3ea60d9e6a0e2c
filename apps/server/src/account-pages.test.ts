import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStripeStandIn, startTestSmtpServer, type StripeStandIn, type TestSmtpServer } from "@directory/api/testing";
import { trpcCall, trpcData } from "./account-http-fixtures";
import {
  createKeyThroughPage,
  getPage,
  keyIdsOn,
  openSignInLink,
  OWN_ORIGIN,
  postForm,
  signInLinkOf,
  signInThroughPages,
  type PageSession,
} from "./account-pages-fixtures";
import { SMALL_TEST_WORLD, startTestServer, type TestServer } from "./testing";

/**
 * The account pages over HTTP, without a browser: sign-in by mail, the session cookie, keys created
 * and revoked through forms. The procedures do the Origin, CSRF and ownership checks; these tests
 * show that the pages hand them what the browser sent and answer their refusals with the status.
 */

let server: TestServer;
let smtp: TestSmtpServer;

beforeAll(async () => {
  smtp = await startTestSmtpServer();
  server = await startTestServer({ seed: SMALL_TEST_WORLD, smtpUrl: smtp.url, rateLimits: { signInMailsPerClientPerHour: 1000, openPerMinute: 10_000 } });
});

afterAll(async () => {
  await server?.close();
  await smtp?.close();
});

const search = (key: string) => fetch(`${server.url}/api/v2/businesses?category=restaurant&city=berlin`, { headers: { authorization: `Bearer ${key}` } });

async function keyLabels(session: PageSession): Promise<string[]> {
  const keys = await trpcData<{ label: string }[]>(await trpcCall(server.url, "account.keys.list", "query", undefined, { cookie: session.cookie }));
  return keys.map((key) => key.label);
}

describe("sign-in by mail", () => {
  it("shows a form with a labelled Email field and a Send sign-in link button, never stored", async () => {
    const page = await getPage(server.url, "/sign-in");
    expect(page.status).toBe(200);
    expect(page.headers.get("cache-control")).toBe("no-store");
    expect(page.headers.get("content-security-policy")).toContain("form-action 'self'");
    expect(page.body).toMatch(/<label for="sign-in-email">Email<\/label>\s*<input id="sign-in-email" name="email" type="email"/);
    expect(page.body).toContain('<button type="submit">Send sign-in link</button>');
  });

  it("answers a known and an unknown address with the same status and body", async () => {
    await signInThroughPages(server.url, smtp, "known@example.org");
    const known = await postForm(server.url, "/sign-in", { email: "known@example.org" });
    const unknown = await postForm(server.url, "/sign-in", { email: "unknown@example.org" });
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(known.status);
    expect(unknown.body).toBe(known.body);
    expect(known.body).toContain("If that address can receive mail, a link is on its way; it works once, within 15 minutes.");
    await smtp.nextMail("known@example.org");
    await smtp.nextMail("unknown@example.org");
  });

  it("answers a malformed address with 400 and the form again, and sends nothing", async () => {
    const page = await postForm(server.url, "/sign-in", { email: "not an <address>" });
    expect(page.status).toBe(400);
    expect(page.body).toContain("That is not an email address");
    expect(page.body).toContain('value="not an &lt;address&gt;"');
    expect(page.body).toContain("Send sign-in link");
  });

  it("keeps the mail limit's 429, saying to wait", async () => {
    const email = "flooded@example.org";
    for (let i = 0; i < 5; i += 1) expect((await postForm(server.url, "/sign-in", { email })).status).toBe(200);
    const page = await postForm(server.url, "/sign-in", { email });
    expect(page.status).toBe(429);
    expect(page.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(page.body).toContain("Please wait");
    for (let i = 0; i < 5; i += 1) await smtp.nextMail(email);
  });

  it("mails a link under PUBLIC_BASE_URL that sets an HttpOnly, SameSite=Lax cookie once and leads to /dashboard; a used link is a 401 page", async () => {
    expect((await postForm(server.url, "/sign-in", { email: "link@example.org" })).status).toBe(200);
    const text = (await smtp.nextMail("link@example.org")).text;
    expect(text).toContain("http://directory.test/sign-in/magic-link/verify?token=");
    const link = signInLinkOf(text);
    // A mail scanner's GET shows the button and spends nothing: the link still works after two.
    for (let i = 0; i < 2; i += 1) expect((await getPage(server.url, `${link.pathname}${link.search}`)).headers.getSetCookie()).toEqual([]);
    const opened = await openSignInLink(server.url, link);
    expect(opened.status).toBe(303);
    expect(opened.headers.get("location")).toBe("/dashboard");
    const setCookie = opened.headers.getSetCookie().join("\n");
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);

    const again = await postForm(server.url, link.pathname, { token: link.searchParams.get("token")! });
    expect(again.status).toBe(401);
    expect(again.headers.getSetCookie()).toEqual([]);
    expect(again.body).toContain('<a href="/sign-in">');
    expect((await postForm(server.url, link.pathname, { token: "forged" })).status).toBe(401);
  });

  it("sends a visitor without a session from /dashboard to /sign-in", async () => {
    const page = await getPage(server.url, "/dashboard");
    expect(page.status).toBe(303);
    expect(page.headers.get("location")).toBe("/sign-in");
    expect((await getPage(server.url, "/dashboard", "better-auth.session_token=forged")).headers.get("location")).toBe("/sign-in");
  });
});

describe("a session's changes through the forms", () => {
  it("are refused (403, nothing changed) with a foreign Origin or without the csrfToken field", async () => {
    const session = await signInThroughPages(server.url, smtp, "forms@example.org");
    const foreign = await postForm(
      server.url,
      "/developers/keys",
      { label: "foreign", csrfToken: session.csrfToken },
      { cookie: session.cookie, origin: "https://evil.example" },
    );
    expect(foreign.status).toBe(403);
    expect(foreign.headers.get("cache-control")).toBe("no-store");
    expect(foreign.body).toContain("This request was refused");
    const tokenless = await postForm(server.url, "/developers/keys", { label: "no token" }, { cookie: session.cookie });
    expect(tokenless.status).toBe(403);
    const forged = await postForm(server.url, "/developers/keys", { label: "forged", csrfToken: "forged" }, { cookie: session.cookie });
    expect(forged.status).toBe(403);
    expect(await keyLabels(session)).toEqual([]);

    const { key } = await createKeyThroughPage(server.url, session, "kept");
    const [id] = keyIdsOn((await getPage(server.url, "/developers", session.cookie)).body);
    expect((await postForm(server.url, "/developers/keys/revoke", { id: id! }, { cookie: session.cookie })).status).toBe(403);
    const foreignRevoke = await postForm(
      server.url,
      "/developers/keys/revoke",
      { id: id!, csrfToken: session.csrfToken },
      { cookie: session.cookie, origin: "https://evil.example" },
    );
    expect(foreignRevoke.status).toBe(403);
    expect((await postForm(server.url, "/sign-out", {}, { cookie: session.cookie })).status).toBe(403);
    expect(await keyLabels(session)).toEqual(["kept"]);
    expect((await search(key)).status).toBe(200);
    expect((await getPage(server.url, "/dashboard", session.cookie)).status).toBe(200);
  });

  it("show a new key once, count its use, revoke it, and sign out", async () => {
    const session = await signInThroughPages(server.url, smtp, "dev@example.org");
    const { key, page } = await createKeyThroughPage(server.url, session, "my <app>");
    expect(page.headers.get("cache-control")).toBe("no-store");
    expect(page.body).toContain("shown this once and never again");
    expect(page.body).toContain("my &lt;app&gt;");
    for (let i = 0; i < 3; i += 1) expect((await search(key)).status).toBe(200);

    const developers = await getPage(server.url, "/developers", session.cookie);
    expect(developers.headers.get("cache-control")).toBe("no-store");
    expect(developers.body).not.toContain(key);
    expect(developers.body).toContain("3 of 100 requests this month");
    expect(developers.body).toContain("Trial");
    expect(developers.body).toContain("an operator grants them");
    const dashboard = await getPage(server.url, "/dashboard", session.cookie);
    expect(dashboard.status).toBe(200);
    expect(dashboard.body).toContain("dev@example.org");
    expect(dashboard.body).toContain("3 of 100 requests this month");
    expect(dashboard.body).toContain('<button type="submit">Sign out</button>');
    expect(dashboard.body).not.toContain(key);

    const [id] = keyIdsOn(developers.body);
    const revoked = await postForm(server.url, "/developers/keys/revoke", { id: id!, csrfToken: session.csrfToken }, { cookie: session.cookie });
    expect(revoked.status).toBe(303);
    expect(revoked.headers.get("location")).toMatch(/^\/developers\?revoked=1/);
    expect((await search(key)).status).toBe(401);
    expect(keyIdsOn((await getPage(server.url, "/developers", session.cookie)).body)).toEqual([]);

    const out = await postForm(server.url, "/sign-out", { csrfToken: session.csrfToken }, { cookie: session.cookie });
    expect(out.status).toBe(303);
    expect(out.headers.get("location")).toBe("/");
    expect((await getPage(server.url, "/dashboard", session.cookie)).headers.get("location")).toBe("/sign-in");
  });

  it("end another browser's session from the dashboard", async () => {
    const first = await signInThroughPages(server.url, smtp, "two-browsers@example.org");
    const second = await signInThroughPages(server.url, smtp, "two-browsers@example.org");
    const dashboard = await getPage(server.url, "/dashboard", first.cookie);
    const ids = [...dashboard.body.matchAll(/action="\/dashboard\/sessions\/end">.*?name="id" value="([^"]+)"/g)].map((match) => match[1]!);
    expect(ids).toHaveLength(1);
    const ended = await postForm(server.url, "/dashboard/sessions/end", { id: ids[0]!, csrfToken: first.csrfToken }, { cookie: first.cookie });
    expect(ended.status).toBe(303);
    expect((await getPage(server.url, "/dashboard", second.cookie)).headers.get("location")).toBe("/sign-in");
    expect((await getPage(server.url, "/dashboard", first.cookie)).status).toBe(200);
  });
});

describe("two accounts", () => {
  it("never see or revoke each other's keys", async () => {
    const alice = await signInThroughPages(server.url, smtp, "alice@example.org");
    const bob = await signInThroughPages(server.url, smtp, "bob@example.org");
    const { key } = await createKeyThroughPage(server.url, alice, "alice's");
    const [aliceKey] = await trpcData<{ id: string; visiblePrefix: string }[]>(
      await trpcCall(server.url, "account.keys.list", "query", undefined, { cookie: alice.cookie }),
    );
    const refused = await postForm(server.url, "/developers/keys/revoke", { id: aliceKey!.id, csrfToken: bob.csrfToken }, { cookie: bob.cookie });
    expect(refused.status).toBe(404);
    expect(refused.body).toContain("not yours");
    const withAlicesToken = await postForm(server.url, "/developers/keys/revoke", { id: aliceKey!.id, csrfToken: alice.csrfToken }, { cookie: bob.cookie });
    expect(withAlicesToken.status).toBe(403);
    expect((await search(key)).status).toBe(200);

    const bobsPage = await getPage(server.url, "/developers", bob.cookie);
    expect(bobsPage.status).toBe(200);
    expect(bobsPage.body).not.toContain(aliceKey!.visiblePrefix);
    expect(bobsPage.body).not.toContain(aliceKey!.id);
    expect((await getPage(server.url, "/dashboard", bob.cookie)).body).not.toContain(aliceKey!.visiblePrefix);
  });
});

describe("/developers", () => {
  it("signed out: what the API offers, its price and the trial from the configured limits, and a link to /sign-in", async () => {
    const page = await getPage(server.url, "/developers");
    expect(page.status).toBe(200);
    for (const link of ["/docs", "/api/openapi.json", "/mcp", "/api/graphql/schema.graphql", "/sign-in"]) expect(page.body).toContain(`href="${link}"`);
    expect(page.body).toContain("4,999 INR a month");
    expect(page.body).toContain("10,000 requests a month");
    expect(page.body).toContain("100 requests a month per key");
    expect(page.body).not.toContain("csrfToken");
  });

  it("with a payment provider: a button to buy the plan that leads to its checkout", async () => {
    const stripe: StripeStandIn = await startStripeStandIn();
    const stripeSettings = {
      secretKey: "sk_test_pages",
      webhookSecret: "whsec_pages",
      priceId: "price_developer",
      apiBaseUrl: stripe.baseUrl,
    };
    const selling = await startTestServer({ seed: SMALL_TEST_WORLD, smtpUrl: smtp.url, stripe: stripeSettings, rateLimits: { trialPerMonth: 7 } });
    try {
      const session = await signInThroughPages(selling.url, smtp, "buyer@example.org");
      const page = await getPage(selling.url, "/developers", session.cookie);
      expect(page.body).toContain("Buy the developer plan");
      expect(page.body).toContain("7 requests a month per key");
      expect(page.headers.get("content-security-policy")).toContain("form-action 'self' https://checkout.stripe.com");
      const bought = await postForm(selling.url, "/developers/plan", { csrfToken: session.csrfToken }, { cookie: session.cookie, origin: OWN_ORIGIN });
      expect(bought.status).toBe(303);
      expect(bought.headers.get("location")).toMatch(/^https:\/\/checkout\.stripe\.test\//);
      expect(stripe.checkouts).toHaveLength(1);
      expect((await postForm(selling.url, "/developers/plan", {}, { cookie: session.cookie })).status).toBe(403);
      expect(stripe.checkouts).toHaveLength(1);
    } finally {
      await selling.close();
      await stripe.close();
    }
    const session = await signInThroughPages(server.url, smtp, "no-provider@example.org");
    expect((await postForm(server.url, "/developers/plan", { csrfToken: session.csrfToken }, { cookie: session.cookie })).status).toBe(404);
  });
});
