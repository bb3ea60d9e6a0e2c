import { randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { accounts, businesses } from "@directory/db";
// addOwner is the one write path of ownership; the test makes owners with it as an operator would (no door exposes it).
import { addOwner } from "../../../packages/api/src/services/claims/ownership";
import type { TestServer } from "./testing";

/*
 * The owner dashboard's tests: listings of the demo world whose city and category have AI answers
 * (so their citations and scores are real), owners made by the ownership write path, and leads,
 * corrections and webhooks sent through the public doors as agents and programs send them.
 */

export interface ManagedListing {
  id: string;
  slug: string;
  name: string;
}

/** Active listings whose city and category have at least three AI answers, one each call (tests must not share a listing). */
export function listingsWithCitations(server: TestServer): () => Promise<ManagedListing> {
  let taken = 0;
  return async () => {
    const rows = await server.database.db
      .select({ id: businesses.id, slug: businesses.slug, name: businesses.name })
      .from(businesses)
      .where(
        and(
          eq(businesses.status, "active"),
          sql`(select count(*) from documents d where d.kind = 'ai_answer' and d.city_id = ${businesses.cityId} and d.category_slug = ${businesses.categorySlug}) >= 3`,
        ),
      )
      .orderBy(businesses.id)
      .limit(1)
      .offset(taken);
    taken += 1;
    if (!rows[0]) throw new Error(`no listing with citations left (took ${taken - 1})`);
    return rows[0];
  };
}

export async function accountIdOf(server: TestServer, email: string): Promise<string> {
  const [row] = await server.database.db.select({ id: accounts.id }).from(accounts).where(eq(accounts.email, email));
  if (!row) throw new Error(`no account for ${email}`);
  return row.id;
}

/** Makes a signed-up person an owner of a listing, as an operator's decision does. */
export async function makeOwner(server: TestServer, email: string, businessId: string): Promise<string> {
  const accountId = await accountIdOf(server, email);
  await server.database.db.transaction((tx) => addOwner(tx, { businessId, accountId, method: "operator", decidedBy: "operator" }));
  return accountId;
}

async function postJson(server: TestServer, path: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

/** A lead sent to the listing as an agent sends one, with the user's consent. */
export async function sendLead(server: TestServer, slug: string, contactName: string): Promise<string> {
  const sent = await postJson(server, "/api/v2/leads", {
    slug,
    contactName,
    contactEmail: "customer@example.com",
    message: "Could I book a visit next week?",
    idempotencyKey: randomUUID(),
    consent: { userAgreedToBeContacted: true, statementShownToUser: "May this business contact you about your request?" },
  });
  if (sent.status !== 201 && sent.status !== 200) throw new Error(`sending a lead answered ${sent.status}: ${JSON.stringify(sent.body)}`);
  return (sent.body as { leadId: string }).leadId;
}

/** A correction proposed on the listing, as anyone may propose one. */
export async function proposeCorrection(server: TestServer, slug: string, evidence: string): Promise<void> {
  const sent = await postJson(server, "/api/v2/corrections", { slug, property: "phone", value: "+91 22 5555 0100", evidence });
  if (sent.status !== 201) throw new Error(`proposing a correction answered ${sent.status}: ${JSON.stringify(sent.body)}`);
}

/** A webhook registered with a business key, as the business's program registers one. */
export async function registerWebhook(server: TestServer, key: string, url: string): Promise<void> {
  const sent = await postJson(server, "/api/developers/webhooks", { url, events: ["entity.updated"] }, { authorization: `Bearer ${key}` });
  if (sent.status !== 201) throw new Error(`registering a webhook answered ${sent.status}: ${JSON.stringify(sent.body)}`);
}

/** The listing's public profile over REST: each current claim with its source. */
export async function publicClaims(server: TestServer, slug: string): Promise<{ property: string; value: unknown; source: string }[]> {
  const response = await fetch(`${server.url}/api/v2/entity-profile?slug=${encodeURIComponent(slug)}`);
  if (response.status !== 200) throw new Error(`the profile answered ${response.status}`);
  return ((await response.json()) as { claims: { property: string; value: unknown; source: string }[] }).claims;
}

/** The new business key an answer page shows once. */
export function newKeyOn(html: string): string | null {
  return /id="new-key-value">([^<]+)</.exec(html)?.[1] ?? null;
}
