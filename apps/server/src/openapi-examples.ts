import { randomUUID } from "node:crypto";
import { and, asc, count, desc, eq, isNull } from "drizzle-orm";
import { createApiKey, parseCitationEngines } from "@directory/api";
import { businesses, categories, cities, corrections, webhookDeliveries, type Database } from "@directory/db";

/**
 * The example request and response of each REST operation, recorded from a demo-world server by
 * openapi-examples.generate.ts into packages/api/src/openapi-examples.json (merged into the OpenAPI
 * document) and replayed against a live server by api-reference.test.ts.
 */

export type KeyKind = "developer" | "partner" | "business" | "admin";

export interface ExampleRequest {
  method: "GET" | "POST" | "PATCH" | "DELETE";
  /** The path template of the operation, e.g. /entity/{id}. */
  path: string;
  pathParams?: Record<string, string>;
  query?: Record<string, string>;
  /** Authorization: Bearer <your-developer-key>, <your-partner-key>, <your-business-key> or <your-admin-key>; none for an anonymous call. */
  headers?: Record<string, string>;
  body?: unknown;
}

export interface OperationExample {
  summary: string;
  request: ExampleRequest;
  status: number;
  response: unknown;
  /** Paths in the response (a.b, items[].id) whose value changes from run to run: compared by type only. */
  volatile: string[];
}

export interface ExamplesFile {
  $comment: string;
  operations: Record<string, OperationExample>;
}

/** Arrays in recorded responses keep this many items, so the document stays small. */
export const EXAMPLE_ARRAY_ITEMS = 2;

/**
 * The citation engine the examples' servers are configured with: owner answers name it, and a
 * recheck is queued for it (a recheck only queues; nothing ever calls this address).
 */
export const EXAMPLE_CITATION_ENGINES = parseCitationEngines("compatible:example-model@http://127.0.0.1:9/v1");

const KEY_PLACEHOLDER = /^Bearer <your-(developer|partner|business|admin)-key>$/;

export function keyPlaceholder(kind: KeyKind): string {
  return `Bearer <your-${kind}-key>`;
}

export function keyKindOf(request: ExampleRequest): KeyKind | null {
  const match = KEY_PLACEHOLDER.exec(request.headers?.Authorization ?? "");
  return (match?.[1] as KeyKind | undefined) ?? null;
}

export function exampleUrl(request: ExampleRequest): string {
  const path = request.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(request.pathParams?.[name] ?? `{${name}}`));
  const query = new URLSearchParams(request.query ?? {}).toString();
  return query ? `${path}?${query}` : path;
}

/** The business the example business key is bound to: the first active, unexpiring listing by slug (the same in every demo world). */
export async function exampleOwnBusiness(database: Database): Promise<string> {
  const [row] = await database.db
    .select({ slug: businesses.slug })
    .from(businesses)
    .where(and(eq(businesses.status, "active"), isNull(businesses.subscriptionExpiresAt)))
    .orderBy(asc(businesses.slug))
    .limit(1);
  if (!row) throw new Error("the demo world has no active business without a subscription end");
  return row.slug;
}

/** The category and city with the most active businesses: a search that shows a full page. */
export async function exampleSearchPair(database: Database): Promise<{ category: string; city: string }> {
  const [pair] = await database.db
    .select({ category: categories.slug, city: cities.name, n: count() })
    .from(businesses)
    .innerJoin(categories, eq(categories.slug, businesses.categorySlug))
    .innerJoin(cities, eq(cities.id, businesses.cityId))
    .where(and(eq(businesses.status, "active")))
    .groupBy(categories.slug, cities.name)
    .orderBy(desc(count()), asc(categories.slug), asc(cities.name))
    .limit(1);
  if (!pair) throw new Error("the demo world has no active business");
  return pair;
}

/** An unclaimed active listing, the same in every demo world. */
export async function exampleUnclaimedBusiness(database: Database): Promise<string> {
  const [row] = await database.db
    .select({ slug: businesses.slug })
    .from(businesses)
    .where(and(eq(businesses.status, "active"), eq(businesses.ownership, "unclaimed")))
    .orderBy(asc(businesses.slug))
    .limit(1);
  if (!row) throw new Error("the demo world has no unclaimed active business");
  return row.slug;
}

/** One key of each kind, made directly in the database; webhooks belong to the key that made them. */
export async function createExampleKeys(database: Database): Promise<Record<KeyKind, string>> {
  const label = "openapi examples";
  return {
    developer: (await createApiKey(database.db, { kind: "developer", label })).key,
    partner: (await createApiKey(database.db, { kind: "partner", label })).key,
    business: (await createApiKey(database.db, { kind: "business", label, businessSlug: await exampleOwnBusiness(database) })).key,
    admin: (await createApiKey(database.db, { kind: "admin", label })).key,
  };
}

/**
 * What an operation needs in the database before its example can answer 2xx and no API call
 * can arrange: a retry needs a failed delivery, and no worker runs in these servers.
 */
export async function prepareExample(operationId: string, request: ExampleRequest, database: Database): Promise<void> {
  if (operationId === "rejectCorrection") {
    // A second pending proposal to reject, beside the one acceptCorrection accepts.
    const [own] = await database.db
      .select({ id: businesses.id })
      .from(businesses)
      .where(eq(businesses.slug, await exampleOwnBusiness(database)));
    const id = randomUUID();
    await database.db.insert(corrections).values({
      id,
      businessId: own!.id,
      property: "phone",
      value: "+91 22 4000 5555",
      proposalKey: `example:${id}`,
      evidence: "A number from an old flyer",
      submitter: "example",
    });
    request.pathParams = { id };
    return;
  }
  if (operationId === "redeliverWebhook") {
    const deliveryId = request.pathParams?.deliveryId ?? "";
    await database.db
      .update(webhookDeliveries)
      .set({ status: "failed", attempts: 5, completedAt: new Date(), lastStatusCode: 503, lastError: "HTTP 503 from the receiver" })
      .where(eq(webhookDeliveries.id, deliveryId));
  }
}

/** Sends an example request with a real key in place of the placeholder. */
export async function sendExample(baseUrl: string, request: ExampleRequest, keys: Record<KeyKind, string>): Promise<{ status: number; body: unknown }> {
  const kind = keyKindOf(request);
  const headers: Record<string, string> = { accept: "application/json" };
  if (kind) headers.authorization = `Bearer ${keys[kind]}`;
  // The REST middleware reads a JSON body on every POST, PATCH and DELETE, even an operation that takes none.
  if (request.method !== "GET") headers["content-type"] = "application/json";
  const response = await fetch(`${baseUrl}${exampleUrl(request)}`, {
    method: request.method,
    headers,
    body: request.method === "GET" ? undefined : JSON.stringify(request.body ?? {}),
  });
  const text = await response.text();
  if (response.headers.get("content-type")?.includes("ndjson")) return { status: response.status, body: firstLinesAndLast(text) };
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON: kept as text, and the comparison reports it.
  }
  return { status: response.status, body };
}

/** An NDJSON body as an example shows it: its first EXAMPLE_ARRAY_ITEMS lines and its last (an export's position). */
function firstLinesAndLast(text: string): string {
  const lines = text.split("\n").filter(Boolean);
  const shown = lines.length > EXAMPLE_ARRAY_ITEMS + 1 ? [...lines.slice(0, EXAMPLE_ARRAY_ITEMS), lines.at(-1)!] : lines;
  return `${shown.join("\n")}\n`;
}

/** Every array cut to EXAMPLE_ARRAY_ITEMS items, recursively. */
export function trimResponse(value: unknown): unknown {
  if (Array.isArray(value)) return value.slice(0, EXAMPLE_ARRAY_ITEMS).map(trimResponse);
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, trimResponse(item)]));
  return value;
}

function child(path: string, key: string): string {
  return path ? `${path}.${key}` : key;
}

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;

/** Paths whose values differ between two runs of the same calls, plus every date-time string (clock-dependent). */
export function volatilePaths(first: unknown, second: unknown, path = "", found = new Set<string>()): Set<string> {
  if (Array.isArray(first) && Array.isArray(second)) {
    if (first.length !== second.length) found.add(path);
    for (let i = 0; i < Math.min(first.length, second.length); i++) volatilePaths(first[i], second[i], `${path}[]`, found);
  } else if (first && second && typeof first === "object" && typeof second === "object" && !Array.isArray(first) && !Array.isArray(second)) {
    const a = first as Record<string, unknown>;
    const b = second as Record<string, unknown>;
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) volatilePaths(a[key], b[key], child(path, key), found);
  } else if (first !== second || (typeof first === "string" && ISO_DATE_TIME.test(first))) {
    found.add(path);
  }
  return found;
}

function kindOf(value: unknown): string {
  return value === null ? "null" : Array.isArray(value) ? "array" : typeof value;
}

/**
 * Differences between a recorded example and a live response: same shape everywhere, same values
 * where the path is not volatile. Arrays: the example holds the first items of the live one (cut
 * to EXAMPLE_ARRAY_ITEMS). Volatile strings seen on both sides are added to `renamed` (example
 * value -> live value), so later requests can name what this one created (a webhook's id).
 */
export function compareToExample(example: unknown, live: unknown, volatile: ReadonlySet<string>, renamed: Map<string, string>, path = ""): string[] {
  const where = path || "(body)";
  if (volatile.has(path)) {
    if (typeof example === "string" && typeof live === "string" && example !== live) renamed.set(example, live);
    // A volatile value may be absent (null) in one run and present in another.
    if (example !== null && live !== null && kindOf(example) !== kindOf(live)) return [`${where}: ${kindOf(live)} where the example has ${kindOf(example)}`];
    if (!Array.isArray(example) || !Array.isArray(live)) return [];
  }
  if (kindOf(example) !== kindOf(live)) return [`${where}: ${kindOf(live)} where the example has ${kindOf(example)}`];
  if (Array.isArray(example) && Array.isArray(live)) {
    const problems: string[] = [];
    if (!volatile.has(path) && (example.length < EXAMPLE_ARRAY_ITEMS ? live.length !== example.length : live.length < example.length)) {
      problems.push(`${where}: ${live.length} items where the example has ${example.length}${example.length < EXAMPLE_ARRAY_ITEMS ? "" : " (cut)"}`);
    }
    for (let i = 0; i < Math.min(example.length, live.length); i++) problems.push(...compareToExample(example[i], live[i], volatile, renamed, `${path}[]`));
    return problems;
  }
  if (example && typeof example === "object") {
    const a = example as Record<string, unknown>;
    const b = live as Record<string, unknown>;
    const problems: string[] = [];
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
      if (!(key in b)) problems.push(`${child(path, key)}: missing from the live response`);
      else if (!(key in a)) problems.push(`${child(path, key)}: not in the example`);
      else problems.push(...compareToExample(a[key], b[key], volatile, renamed, child(path, key)));
    }
    return problems;
  }
  const moved = MOVES_WITH_THE_CALENDAR[path.slice(path.lastIndexOf(".") + 1)];
  if (moved)
    return moved(example, live) ? [] : [`${where}: ${JSON.stringify(live)} where the example has ${JSON.stringify(example)}, and time only adds stale facts`];
  return example === live ? [] : [`${where}: ${JSON.stringify(live)} where the example has ${JSON.stringify(example)}`];
}

/**
 * Values the calendar moves, not the data: the demo world's facts were observed at fixed dates and
 * each passes its useful life on a day of its own (staleAfter), so a later replay finds more of
 * them stale. They are held to the only way time moves them: the count never falls below the
 * recorded one, and a fact recorded stale is still stale. Everything else stays exact.
 */
const MOVES_WITH_THE_CALENDAR: Record<string, (example: unknown, live: unknown) => boolean> = {
  staleCount: (example, live) => typeof example === "number" && typeof live === "number" && Number.isInteger(live) && live >= example,
  stale: (example, live) => typeof example === "boolean" && typeof live === "boolean" && (live || !example),
  agentInstructions: (example, live) => typeof example === "string" && typeof live === "string" && staleFactsOnlyGrew(example, live),
};

/** agent.json's sentence on stale facts (services/entities/agent-profile.ts): none, or the properties past their useful life. */
const STALE_FACTS_SENTENCE =
  /^(.*?)(?:No fact here is stale \(past its useful life\)\. |Stale, past their useful life: ([^(]*) \(say how old, or check before relying on them\)\. )(.*)$/s;

/** The same instructions, except that the live ones may name more stale facts (never fewer). */
function staleFactsOnlyGrew(example: string, live: string): boolean {
  const [recorded, now] = [STALE_FACTS_SENTENCE.exec(example), STALE_FACTS_SENTENCE.exec(live)];
  if (!recorded || !now) return example === live;
  const named = (match: RegExpExecArray) => new Set(match[2]?.split(", ") ?? []);
  return recorded[1] === now[1] && recorded[3] === now[3] && [...named(recorded)].every((property) => named(now).has(property));
}

/** The request with every value a previous live response renamed (ids created during the replay). */
export function renameRequest(request: ExampleRequest, renamed: ReadonlyMap<string, string>): ExampleRequest {
  const rename = (values?: Record<string, string>) =>
    values && Object.fromEntries(Object.entries(values).map(([key, value]) => [key, renamed.get(value) ?? value]));
  // A body's top-level strings too: a lead's transition names the lead submitted just before.
  const body =
    request.body && typeof request.body === "object" && !Array.isArray(request.body)
      ? Object.fromEntries(Object.entries(request.body).map(([key, value]) => [key, typeof value === "string" ? (renamed.get(value) ?? value) : value]))
      : request.body;
  return { ...request, pathParams: rename(request.pathParams), query: rename(request.query), body };
}
