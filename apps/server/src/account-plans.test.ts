import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  signedStripeEvent,
  startStripeStandIn,
  startTestSmtpServer,
  stripeSubscription,
  type StripeStandIn,
  type TestSmtpServer,
} from "@directory/api/testing";
import { sessionHeaders, signInOverHttp, trpcCall, trpcData, type HttpSession } from "./account-http-fixtures";
import { SMALL_TEST_WORLD, startTestServer, type TestServer } from "./testing";

/** A developer key's monthly limit is its account's: the trial without a plan, KEY_MONTHLY_LIMIT with one (granted, or bought). */

const TRIAL = 3;
const WEBHOOK_SECRET = "whsec_test_account_plans";
let server: TestServer;
let smtp: TestSmtpServer;
let stripe: StripeStandIn;

beforeAll(async () => {
  smtp = await startTestSmtpServer();
  stripe = await startStripeStandIn();
  const stripeSettings = {
    secretKey: "sk_test_plans",
    webhookSecret: WEBHOOK_SECRET,
    priceId: "price_developer",
    apiBaseUrl: stripe.baseUrl,
  };
  server = await startTestServer({ seed: SMALL_TEST_WORLD, smtpUrl: smtp.url, stripe: stripeSettings, rateLimits: { trialPerMonth: TRIAL } });
});

afterAll(async () => {
  await server?.close();
  await stripe?.close();
  await smtp?.close();
});

async function newKey(session: HttpSession, label: string): Promise<{ id: string; key: string }> {
  return trpcData(await trpcCall(server.url, "account.keys.create", "mutation", { label }, sessionHeaders(session)));
}

const search = (key: string) => fetch(`${server.url}/api/v2/businesses?category=restaurant&city=berlin`, { headers: { authorization: `Bearer ${key}` } });

/** The signature with its first hex digit changed (always changed: a fixed digit would sometimes be the same one). */
function forgedSignatureOf(signature: string): string {
  return signature.replace(/v1=(\w)/, (_match, digit: string) => `v1=${digit === "0" ? "1" : "0"}`);
}

async function useUp(key: string, calls: number): Promise<void> {
  for (let i = 0; i < calls; i += 1) expect((await search(key)).status).toBe(200);
}

describe("a developer key's monthly limit", () => {
  it("is the trial's without a plan, says how to raise it, and becomes KEY_MONTHLY_LIMIT after grant-plan, keeping the month's count", async () => {
    const session = await signInOverHttp(server.url, smtp, "trial@example.org");
    const { key } = await newKey(session, "trial key");
    await useUp(key, TRIAL);
    const refused = await search(key);
    expect(refused.status).toBe(429);
    const body = (await refused.json()) as { error: string; policy: string; limit: number };
    expect(body).toMatchObject({ policy: "key-monthly", limit: TRIAL });
    expect(body.error).toMatch(/trial/i);
    expect(body.error).toContain("/developers");

    const [listed] = await trpcData<{ usedThisMonth: number; monthlyLimit: number }[]>(
      await trpcCall(server.url, "account.keys.list", "query", undefined, { cookie: session.cookie }),
    );
    expect(listed).toMatchObject({ usedThisMonth: TRIAL, monthlyLimit: TRIAL });

    // What `directory-admin accounts grant-plan` calls, with the admin key.
    const until = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    await trpcData(
      await trpcCall(server.url, "accounts.grantPlan", "mutation", { email: "trial@example.org", until }, { authorization: `Bearer ${server.adminKey}` }),
    );
    const admitted = await search(key);
    expect(admitted.status).toBe(200);
    expect(admitted.headers.get("ratelimit-policy")).toContain("q=10000");
    expect(admitted.headers.get("ratelimit")).toContain(`r=${10_000 - TRIAL - 1}`);
  });

  it("becomes KEY_MONTHLY_LIMIT on the payment provider's signed event, through the checkout the developer started", async () => {
    const session = await signInOverHttp(server.url, smtp, "buyer@example.org");
    const { key } = await newKey(session, "bought");
    await useUp(key, TRIAL);
    expect((await search(key)).status).toBe(429);

    const checkout = await trpcData<{ url: string }>(await trpcCall(server.url, "account.plan.checkout", "mutation", undefined, sessionHeaders(session)));
    expect(checkout.url).toMatch(/^https:\/\//);
    const accountId = stripe.checkouts.at(-1)!.params["client_reference_id"];
    expect(accountId).toMatch(/^[0-9a-f-]{36}$/);

    const periodEnd = Math.floor(Date.now() / 1000) + 30 * 86_400;
    const event = signedStripeEvent(
      "customer.subscription.created",
      stripeSubscription({ id: "sub_plans_1", status: "active", periodEnd, accountId }),
      WEBHOOK_SECRET,
    );
    const forged = await fetch(`${server.url}/api/billing/webhook`, {
      method: "POST",
      headers: { "content-type": "application/json", "stripe-signature": forgedSignatureOf(event.signature) },
      body: event.body,
    });
    expect(forged.status).toBe(400);
    expect((await search(key)).status).toBe(429);

    const delivered = await fetch(`${server.url}/api/billing/webhook`, {
      method: "POST",
      headers: { "content-type": "application/json", "stripe-signature": event.signature },
      body: event.body,
    });
    expect(await delivered.json()).toEqual({ received: true, outcome: "applied" });
    const me = await trpcData<{ plan: { name: string; activeUntil: string } | null }>(
      await trpcCall(server.url, "account.me", "query", undefined, { cookie: session.cookie }),
    );
    expect(me.plan).toEqual({ name: "developer", activeUntil: new Date(periodEnd * 1000).toISOString() });
    const admitted = await search(key);
    expect(admitted.status).toBe(200);
    expect(admitted.headers.get("ratelimit-policy")).toContain("q=10000");
  });
});
