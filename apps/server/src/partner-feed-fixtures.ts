import { and, asc, eq, sql, type SQL } from "drizzle-orm";
import { afterAll, beforeAll } from "vitest";
import { createApiKey } from "@directory/api";
import { businesses } from "@directory/db";
import type { TGetPartnerFeedOutput } from "@directory/api/schemas";
import { getJson, startTestServer, type TestServer } from "./testing";

/** What the partner-feed tests share: one server per test file with a partner and a developer key, what the feed should hold, and a GET of it. */

export let server: TestServer;
export let partnerKey: string;
export let developerKey: string;

/** Starts the server before the calling file's tests and closes it after them. */
export function usePartnerFeedServer(): void {
  beforeAll(async () => {
    server = await startTestServer();
    partnerKey = (await createApiKey(server.database.db, { kind: "partner" })).key;
    developerKey = (await createApiKey(server.database.db, { kind: "developer" })).key;
  });
  afterAll(async () => {
    await server?.close();
  });
}

export const db = () => server.database.db;

/** What partners may redistribute (spec 4.4): verified, active, subscription not run out. */
export const feedCondition = and(
  eq(businesses.status, "active"),
  eq(businesses.ownership, "owner_verified"),
  sql`(${businesses.subscriptionExpiresAt} is null or ${businesses.subscriptionExpiresAt} > now())`,
);

export async function expectedIds(...extra: (SQL | undefined)[]): Promise<string[]> {
  const rows = await db()
    .select({ id: businesses.id })
    .from(businesses)
    .where(and(feedCondition, ...extra))
    .orderBy(asc(businesses.updatedAt), asc(businesses.id));
  return rows.map((r) => r.id);
}

/** GET a page of the feed; T is the body the test expects (a page unless told otherwise). */
export function feed<T = TGetPartnerFeedOutput>(query: URLSearchParams | string = "", key: string | null = partnerKey, base = server.url) {
  const text = query.toString();
  return getJson<T>(base, `/api/v2/partner-feed${text ? `?${text}` : ""}`, key === null ? {} : { authorization: `Bearer ${key}` });
}
