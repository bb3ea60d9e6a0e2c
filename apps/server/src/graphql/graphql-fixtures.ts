import { and, eq, isNotNull, sql } from "drizzle-orm";
import { afterAll, beforeAll } from "vitest";
import { createApiKey } from "@directory/api";
import { businesses, claims, offers } from "@directory/db";
import { SMALL_TEST_WORLD, startTestServer, type TestServer } from "../testing";
import { getNamedType, GraphQLObjectType } from "./graphql-js";

/** What the GraphQL tests share: one server per test file, fresh client addresses, demo businesses to ask about, and a POST. */

export const ANONYMOUS_PER_DAY = 20;

export let server: TestServer;
export let developerKey: string;
let addressCount = 0;

/** Starts the server before the calling file's tests and closes it after them. */
export function useGraphqlServer(): void {
  beforeAll(async () => {
    // One trusted proxy hop: each test reads from its own address, so anonymous budgets do not mix.
    server = await startTestServer({ seed: SMALL_TEST_WORLD, trustProxyHops: 1, rateLimits: { anonymousPerDay: ANONYMOUS_PER_DAY } });
    developerKey = (await createApiKey(server.database.db, { kind: "developer" })).key;
  });
  afterAll(async () => {
    await server?.close();
  });
}

const db = () => server.database.db;
const activeCondition = and(eq(businesses.status, "active"), sql`(${businesses.subscriptionExpiresAt} is null or ${businesses.subscriptionExpiresAt} > now())`);

/** A fresh client address (X-Forwarded-For) with a full anonymous budget. */
export function freshAddress(): Record<string, string> {
  addressCount += 1;
  return { "x-forwarded-for": `198.51.100.${addressCount}` };
}

export async function activeBusinessWithHistory(): Promise<string> {
  const [row] = await db()
    .select({ slug: businesses.slug })
    .from(claims)
    .innerJoin(businesses, eq(businesses.id, claims.businessId))
    .where(and(isNotNull(claims.supersededAt), activeCondition))
    .limit(1);
  if (!row) throw new Error("the demo world has no active business with claim history");
  return row.slug;
}

export async function activeBusinessWithOffers(): Promise<string> {
  const [row] = await db()
    .select({ slug: businesses.slug })
    .from(offers)
    .innerJoin(businesses, eq(businesses.id, offers.businessId))
    .where(activeCondition)
    .limit(1);
  if (!row) throw new Error("the demo world has no active business with offers");
  return row.slug;
}

/** A GraphQL error as the server writes it: extensions carry the REST error's code, status and details. */
export interface GraphqlError {
  message: string;
  path?: (string | number)[];
  extensions: { code: string; status?: number; [detail: string]: unknown };
}

/**
 * A GraphQL response: D is the data the test's query selects. Data is absent when the request was
 * refused before execution; errors, when present, are never empty (the GraphQL spec).
 */
export interface GraphqlResponse<D = unknown> {
  data?: D;
  errors?: [GraphqlError, ...GraphqlError[]];
}

/** POST a GraphQL request and keep status, headers and body; D is the data the query selects. */
export async function post<D = unknown>(query: string, variables?: Record<string, unknown>, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.url}/api/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json", ...headers },
    body: JSON.stringify({ query, variables }),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as GraphqlResponse<D> };
}

/** Every field of a type, nested, leaving out fields that call another procedure and those with arguments. */
export function fullSelection(type: GraphQLObjectType): string {
  const fields = Object.values(type.getFields())
    .filter((field) => !(field.extensions.cost as { procedure?: boolean } | undefined)?.procedure && field.args.length === 0)
    .map((field) => {
      const named = getNamedType(field.type);
      return named instanceof GraphQLObjectType ? `${field.name} { ${fullSelection(named)} }` : field.name;
    });
  return fields.join(" ");
}
