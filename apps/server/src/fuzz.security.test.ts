import { Agent, request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appRouter, createApiKey } from "@directory/api";
import { businesses, categories, cities } from "@directory/db";
import { startTestServer, type JsonBody, type TestServer } from "./testing";

/**
 * "One guard per rule, on every door": thousands of malformed requests, generated from the
 * surfaces the live server describes (OpenAPI operations, tRPC procedures, MCP tools), must each
 * get a refusal in its door's own error shape: never a 5xx, never a body that is not JSON, never a
 * stack trace or SQL text, and on REST only statuses the OpenAPI document promises.
 * Deterministic: one seeded PRNG picks every random case.
 */

const FUZZ_SEED = 0x5eed_f022;
const CONCURRENCY = 8;
const REQUEST_TIMEOUT_MS = 30_000;
const MIN_REQUESTS = 5_000;
/** Random cases per door, on top of the exhaustive matrices. */
const RANDOM_CASES = { rest: 1_400, trpc: 1_100, mcp: 700 };

type Door = "rest" | "trpc" | "mcp";

interface FuzzCase {
  door: Door;
  method: string;
  /** Raw request target: path and query exactly as sent (escapes included). */
  target: string;
  headers: Record<string, string | string[]>;
  body?: string | Buffer;
  /** What the case is made of, e.g. "query category=nul" or "body bad-json". */
  kind: string;
  /** REST: the OpenAPI operation ("GET /entity/{id}") whose documented statuses apply; tRPC/MCP: procedure or method. */
  route: string;
  /** REST: the method is one the operation documents, so its status must be documented too. */
  documented?: boolean;
  /** A known input carries something every door must refuse (control character, lone surrogate, too deep, wrong type). */
  mustRefuse?: boolean;
  /** MCP notification (no id): 202 with no body is the protocol's answer. */
  notification?: boolean;
}

interface Outcome {
  status: number;
  contentType: string;
  text: string;
  error?: string;
}

interface Failure {
  door: Door;
  method: string;
  target: string;
  route: string;
  kind: string;
  status: number;
  problem: string;
  body: string;
}

interface OpenApiParameter {
  name: string;
  in: "query" | "path" | "header";
  required?: boolean;
}
interface OpenApiOperation {
  parameters?: OpenApiParameter[];
  requestBody?: { content?: Record<string, { schema?: { properties?: Record<string, JsonSchemaProperty>; required?: string[] } }> };
  responses: Record<string, unknown>;
}

interface JsonSchemaProperty {
  type?: string | string[];
  maxLength?: number;
  enum?: unknown[];
}
interface McpTool {
  name: string;
  inputSchema: { properties?: Record<string, JsonSchemaProperty>; required?: string[] };
}

/** mulberry32: small, fast and the same on every machine. */
function createRandom(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (maxExclusive: number) => Math.floor(next() * maxExclusive),
    pick<T>(items: readonly T[]): T {
      return items[Math.floor(next() * items.length)] as T;
    },
    chance: (probability: number) => next() < probability,
  };
}
type Random = ReturnType<typeof createRandom>;

// ---------------------------------------------------------------------------------------------
// Malformed values
// ---------------------------------------------------------------------------------------------

const HUGE_LENGTH = 100 * 1024;
const HUGE = "a".repeat(HUGE_LENGTH);
/** Under the 100 000-byte body limit once wrapped, so it reaches the procedure. */
const BIG = "b".repeat(99_000);
/** Under the 16 KB URL limit, so a GET carrying it reaches the procedure. */
const LONG_FOR_URL = "c".repeat(10_000);

interface QueryValue {
  kind: string;
  /** Already escaped for a URL. */
  raw: string;
  /** A known parameter carrying it must be refused. */
  refuse?: boolean;
}

/** Values for a query or path parameter, escaped as they go on the wire. */
const QUERY_VALUES: QueryValue[] = [
  { kind: "empty", raw: "" },
  { kind: "word", raw: "abc" },
  { kind: "number", raw: "12345" },
  { kind: "negative", raw: "-1" },
  { kind: "zero", raw: "0" },
  { kind: "float", raw: "1.5" },
  { kind: "exponent", raw: "1e309" },
  { kind: "nan", raw: "NaN" },
  { kind: "hex", raw: "0x1F" },
  { kind: "max-int", raw: "99999999999999999999999" },
  { kind: "boolean", raw: "true" },
  { kind: "null-word", raw: "null" },
  { kind: "json-object", raw: encodeURIComponent('{"a":1}') },
  { kind: "json-array", raw: encodeURIComponent("[1,2]") },
  { kind: "nested-brackets", raw: encodeURIComponent("[".repeat(3_000)) },
  { kind: "nested-object", raw: encodeURIComponent('{"a":'.repeat(600) + "1" + "}".repeat(600)) },
  { kind: "nul", raw: "a%00b", refuse: true },
  { kind: "soh", raw: "%01", refuse: true },
  { kind: "del", raw: "x%7F", refuse: true },
  { kind: "c1-control", raw: "%C2%80", refuse: true },
  { kind: "lone-surrogate-utf8", raw: "%ED%A0%80" },
  { kind: "bad-escape", raw: "%zz" },
  { kind: "lone-percent", raw: "%" },
  { kind: "truncated-escape", raw: "ab%4" },
  { kind: "truncated-utf8", raw: "%E2%82" },
  { kind: "invalid-utf8", raw: "%FF%FE" },
  { kind: "overlong-utf8", raw: "%C0%AF" },
  { kind: "raw-latin1-byte", raw: "caf\u00e9" },
  { kind: "unicode", raw: encodeURIComponent("ü日本🙂") },
  { kind: "whitespace", raw: "%20%20%09" },
  { kind: "crlf", raw: "a%0D%0ASet-Cookie:x=1" },
  { kind: "path-traversal", raw: "..%2F..%2Fetc%2Fpasswd" },
  { kind: "quote", raw: encodeURIComponent("' OR '1'='1") },
  { kind: "html", raw: encodeURIComponent("<script>alert(1)</script>") },
  { kind: "long-under-url-limit", raw: LONG_FOR_URL },
  { kind: "huge-100kb", raw: HUGE },
];

/** JSON values for a tRPC input field or an MCP tool argument. */
interface JsonValue {
  kind: string;
  value: unknown;
  /** Any door must refuse it whatever the field's type. */
  refuse?: boolean;
  /** Too long for a GET URL: only sent in bodies. */
  bodyOnly?: boolean;
}

function nestedObject(depth: number): unknown {
  let value: unknown = "x";
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}
function nestedArray(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

const JSON_VALUES: JsonValue[] = [
  { kind: "null", value: null },
  { kind: "number", value: 123 },
  { kind: "negative", value: -1 },
  { kind: "float", value: 1.5 },
  { kind: "huge-number", value: 1e308 },
  { kind: "boolean", value: true },
  { kind: "empty-string", value: "" },
  { kind: "number-string", value: "42" },
  { kind: "array", value: ["a", "b"] },
  { kind: "object", value: { a: 1 } },
  { kind: "nul-string", value: "a\u0000b", refuse: true },
  { kind: "control-string", value: "\u0001\u001b[31m", refuse: true },
  { kind: "del-string", value: "x\u007f", refuse: true },
  { kind: "c1-string", value: "\u0085", refuse: true },
  { kind: "lone-high-surrogate", value: "a\ud800b", refuse: true },
  { kind: "lone-low-surrogate", value: "\udc00", refuse: true },
  { kind: "unicode", value: "ü日本🙂" },
  { kind: "deep-object-12", value: nestedObject(12), refuse: true },
  { kind: "deep-array-30", value: nestedArray(30), refuse: true },
  { kind: "nul-key", value: { "a\u0000": "x" }, refuse: true },
  { kind: "proto-key", value: JSON.parse('{"__proto__":{"polluted":true}}') },
  { kind: "long-string-10kb", value: LONG_FOR_URL },
  { kind: "big-string-99kb", value: BIG, bodyOnly: true },
  { kind: "huge-string-100kb", value: HUGE, bodyOnly: true },
];

/** Authorization header values that are not a usable key (plus valid keys, added at run time). */
function badAuthorizations(wellFormedKey: string): { kind: string; value: string | string[] }[] {
  const wrongChecksum = wellFormedKey.slice(0, -1) + (wellFormedKey.endsWith("A") ? "B" : "A");
  return [
    { kind: "auth-no-scheme", value: wellFormedKey },
    { kind: "auth-bearer-only", value: "Bearer" },
    { kind: "auth-bearer-space", value: "Bearer " },
    { kind: "auth-short-key", value: "Bearer bdk_x" },
    { kind: "auth-10kb-token", value: `Bearer bdk_dev_${"A".repeat(10_240)}` },
    { kind: "auth-wrong-checksum", value: `Bearer ${wrongChecksum}` },
    { kind: "auth-unknown-key", value: `Bearer ${wellFormedKey.replace(/^bdk_dev_/, "bdk_ptr_")}` },
    { kind: "auth-latin1-bytes", value: "Bearer bdk_dev_caf\u00e9\u00ff" },
    { kind: "auth-utf8-bytes", value: `Bearer ${Buffer.from("bdk_dev_日本🙂", "utf8").toString("latin1")}` },
    { kind: "auth-basic", value: "Basic dXNlcjpwYXNz" },
    { kind: "auth-lowercase-scheme", value: `bearer ${wrongChecksum}` },
    { kind: "auth-double-space", value: `Bearer  ${wellFormedKey}` },
    { kind: "auth-two-headers", value: [`Bearer ${wellFormedKey}`, "Bearer bdk_x"] },
    { kind: "auth-comma-list", value: `Bearer ${wellFormedKey}, Bearer bdk_x` },
    { kind: "auth-quoted", value: `Bearer "${wellFormedKey}"` },
  ];
}

// ---------------------------------------------------------------------------------------------
// Sending
// ---------------------------------------------------------------------------------------------

const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });

/** A raw request: fetch would normalise the target, refuse some headers and set Host itself. */
function send(baseUrl: string, fuzzCase: FuzzCase): Promise<Outcome> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve) => {
    let settled = false;
    const settle = (outcome: Outcome) => {
      if (settled) return;
      settled = true;
      resolve(outcome);
    };
    let req: ReturnType<typeof request>;
    try {
      // An explicit length: Node sends a GET or DELETE body unframed, which the server would read as the next request.
      const headers = fuzzCase.body === undefined ? fuzzCase.headers : { ...fuzzCase.headers, "content-length": String(Buffer.byteLength(fuzzCase.body)) };
      req = request({ agent, hostname, port, method: fuzzCase.method, path: fuzzCase.target, headers, timeout: REQUEST_TIMEOUT_MS }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          settle({ status: res.statusCode ?? 0, contentType: String(res.headers["content-type"] ?? ""), text: Buffer.concat(chunks).toString("utf8") }),
        );
        res.on("error", (error) =>
          settle({ status: res.statusCode ?? 0, contentType: "", text: Buffer.concat(chunks).toString("utf8"), error: `response: ${error.message}` }),
        );
      });
    } catch (error) {
      // The client itself refused to send it: a generator bug, reported like any failure.
      settle({ status: 0, contentType: "", text: "", error: `client refused: ${(error as Error).message}` });
      return;
    }
    req.on("timeout", () => req.destroy(new Error(`no answer within ${REQUEST_TIMEOUT_MS} ms`)));
    req.on("error", (error) => settle({ status: 0, contentType: "", text: "", error: `request: ${error.message}` }));
    req.end(fuzzCase.body);
  });
}

async function runAll(baseUrl: string, cases: FuzzCase[], onOutcome: (fuzzCase: FuzzCase, outcome: Outcome) => void): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < cases.length) {
      const fuzzCase = cases[next++]!;
      onOutcome(fuzzCase, await send(baseUrl, fuzzCase));
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}

// ---------------------------------------------------------------------------------------------
// Checks
// ---------------------------------------------------------------------------------------------

const STACK_TRACE = /\bat [^\n"]*?\b\w+\.(?:ts|js|mjs|cjs):\d+/;
const SQL_TEXT = /\b(select|insert|update|delete)\b.*\b(from|into|set)\b/i;

function leakIn(text: string): string | null {
  if (STACK_TRACE.test(text)) return "stack trace in body";
  if (text.includes("node_modules")) return "node_modules path in body";
  if (SQL_TEXT.test(text)) return "SQL text in body";
  if (text.includes("syntax error at")) return "SQL error text in body";
  if (text.includes('relation "')) return "SQL relation name in body";
  if (text.includes("Failed query")) return "failed-query text in body";
  return null;
}

const isObject = (value: unknown): value is Record<string, JsonBody> => typeof value === "object" && value !== null && !Array.isArray(value);

function restErrorProblem(body: JsonBody): string | null {
  if (!isObject(body)) return "REST error body is not an object";
  if (typeof body.error !== "string" || typeof body.code !== "string") return "REST error body lacks { error: string, code: string }";
  return null;
}

/** tRPC's error envelope (superjson) with our public body in data.public. */
function trpcEnvelopeProblem(item: JsonBody): string | null {
  const json = isObject(item) && isObject(item.error) ? item.error.json : undefined;
  if (!isObject(json)) return "tRPC error is not { error: { json } }";
  if (typeof json.message !== "string" || typeof json.code !== "number") return "tRPC error lacks json.message/json.code";
  const data = json.data;
  if (!isObject(data) || typeof data.httpStatus !== "number") return "tRPC error lacks json.data.httpStatus";
  if (!isObject(data.public) || typeof data.public.error !== "string" || typeof data.public.code !== "string")
    return "tRPC error lacks json.data.public { error, code }";
  return null;
}

function trpcProblem(status: number, body: JsonBody): string | null {
  if (Array.isArray(body)) {
    if (body.length === 0) return "tRPC batch answer is an empty array";
    for (const item of body) {
      if (isObject(item) && "result" in item && !("error" in item)) continue;
      const problem = trpcEnvelopeProblem(item);
      if (problem) return `batch item: ${problem}`;
    }
    return null;
  }
  if (isObject(body) && "result" in body && !("error" in body)) return status >= 400 ? `tRPC result with status ${status}` : null;
  const problem = trpcEnvelopeProblem(body);
  if (problem) return problem;
  if (status < 400) return `tRPC error envelope with status ${status}`;
  const httpStatus = body.error.json.data.httpStatus as number;
  return httpStatus === status ? null : `tRPC envelope says httpStatus ${httpStatus}, response is ${status}`;
}

function mcpMessageProblem(message: JsonBody, fuzzCase: FuzzCase): string | null {
  if (!isObject(message) || message.jsonrpc !== "2.0") return "MCP body is not a JSON-RPC 2.0 message";
  if ("error" in message) {
    if (!isObject(message.error) || typeof message.error.code !== "number" || typeof message.error.message !== "string")
      return "JSON-RPC error lacks numeric code / string message";
    return null;
  }
  if (!("result" in message)) return "JSON-RPC message has neither result nor error";
  if (fuzzCase.mustRefuse && !(isObject(message.result) && message.result.isError === true))
    return "tool call with invalid arguments succeeded (expected isError or a JSON-RPC error)";
  return null;
}

function mcpProblem(status: number, body: JsonBody, fuzzCase: FuzzCase): string | null {
  const messages = Array.isArray(body) ? body : [body];
  if (messages.length === 0) return "MCP answer is an empty array";
  for (const message of messages) {
    const problem = mcpMessageProblem(message, fuzzCase);
    if (problem) return problem;
  }
  if (status >= 400 && !messages.every((message) => isObject(message) && "error" in message)) return `JSON-RPC result with status ${status}`;
  return null;
}

function problemsOf(fuzzCase: FuzzCase, outcome: Outcome, documentedStatuses: Map<string, Set<string>>): string[] {
  if (outcome.error && outcome.status === 0) return [`no response (${outcome.error})`];
  const problems: string[] = [];
  const { status, text } = outcome;
  if (status >= 500) problems.push(`status ${status}`);
  if (fuzzCase.mustRefuse && status < 400 && fuzzCase.door !== "mcp") problems.push(`invalid input accepted (status ${status})`);
  if (fuzzCase.door === "rest" && fuzzCase.documented) {
    const documented = documentedStatuses.get(fuzzCase.route);
    if (documented && !documented.has(String(status)) && !documented.has("default")) problems.push(`status ${status} not documented for ${fuzzCase.route}`);
  }
  const leak = leakIn(text);
  if (leak) problems.push(leak);
  if (text === "") {
    const emptyAllowed = fuzzCase.method === "HEAD" || status === 204 || (fuzzCase.notification === true && status === 202);
    if (!emptyAllowed) problems.push("empty body");
    return problems;
  }
  if (!/^application\/json\b/i.test(outcome.contentType)) problems.push(`content-type "${outcome.contentType}"`);
  let body: JsonBody;
  try {
    body = JSON.parse(text);
  } catch {
    problems.push("body is not JSON");
    return problems;
  }
  const shapeProblem =
    fuzzCase.door === "rest"
      ? status >= 400
        ? restErrorProblem(body)
        : null
      : fuzzCase.door === "trpc"
        ? trpcProblem(status, body)
        : mcpProblem(status, body, fuzzCase);
  if (shapeProblem) problems.push(shapeProblem);
  return problems;
}

// ---------------------------------------------------------------------------------------------
// Surfaces and cases
// ---------------------------------------------------------------------------------------------

interface World {
  slug: string;
  id: string;
  category: string;
  city: string;
  keys: { admin: string; partner: string; developer: string; business: string };
}

interface RestOperation {
  route: string;
  method: string;
  pathTemplate: string;
  parameters: OpenApiParameter[];
  /** The JSON request body's properties, when the operation takes one. */
  body: { properties: Record<string, JsonSchemaProperty>; required: string[] } | null;
}

const validValueFor = (name: string, world: World): string =>
  (
    ({ category: world.category, city: world.city, slug: world.slug, id: world.id, limit: "5", format: "json", history: "false", agent: "fuzz" }) as Record<
      string,
      string
    >
  )[name] ?? "x";

function restTarget(pathTemplate: string, pathValues: Record<string, string>, query: string): string {
  const path = pathTemplate.replace(/\{(\w+)\}/g, (_match, name: string) => pathValues[name] ?? "x");
  return query ? `${path}?${query}` : path;
}

function restCases(operations: RestOperation[], world: World, random: Random): FuzzCase[] {
  const cases: FuzzCase[] = [];
  const auths = badAuthorizations(world.keys.developer);
  const goodAuths = [
    { kind: "auth-admin", value: `Bearer ${world.keys.admin}` },
    { kind: "auth-partner", value: `Bearer ${world.keys.partner}` },
    { kind: "auth-developer", value: `Bearer ${world.keys.developer}` },
  ];
  const validBody = (operation: RestOperation, except?: string) =>
    Object.fromEntries((operation.body?.required ?? []).filter((name) => name !== except).map((name) => [name, validJsonFor(name, world)]));
  /** contentType: null sends none; undefined sends application/json with a body. */
  const add = (
    operation: RestOperation,
    kind: string,
    params: { name: string; raw: string }[],
    extra: Partial<FuzzCase> & { contentType?: string | null } = {},
  ) => {
    const { headers: extraHeaders, contentType, ...rest } = extra;
    // Operations that take a body get a plausible one unless the case brings its own, so the fuzzed parts are what fails.
    const body = "body" in extra ? extra.body : operation.body ? JSON.stringify(validBody(operation)) : undefined;
    const pathValues: Record<string, string> = {};
    const query: string[] = [];
    for (const param of params) {
      const declared = operation.parameters.find((p) => p.name === param.name);
      if (declared?.in === "path") pathValues[param.name] = param.raw;
      else query.push(`${param.name}=${param.raw}`);
    }
    for (const p of operation.parameters) if (p.in === "path" && !(p.name in pathValues)) pathValues[p.name] = validValueFor(p.name, world);
    cases.push({
      door: "rest",
      method: operation.method,
      target: restTarget(operation.pathTemplate, pathValues, query.join("&")),
      headers: body === undefined || contentType === null ? { ...extraHeaders } : { "content-type": contentType ?? "application/json", ...extraHeaders },
      body,
      kind,
      route: operation.route,
      documented: true,
      ...rest,
    });
  };
  const baseline = (operation: RestOperation, except?: string) =>
    operation.parameters.filter((p) => p.in === "query" && p.required && p.name !== except).map((p) => ({ name: p.name, raw: validValueFor(p.name, world) }));

  for (const operation of operations) {
    add(operation, "baseline", baseline(operation));
    // Every parameter, every malformed value.
    for (const param of operation.parameters) {
      for (const value of QUERY_VALUES) {
        add(operation, `${param.in} ${param.name}=${value.kind}`, [...baseline(operation, param.name), { name: param.name, raw: value.raw }], {
          mustRefuse: value.refuse,
        });
      }
      if (param.in === "query") {
        add(operation, `repeated ${param.name}`, [...baseline(operation, param.name), { name: param.name, raw: "a" }, { name: param.name, raw: "b" }]);
        add(operation, `repeated ${param.name} x50`, [
          ...baseline(operation, param.name),
          ...Array.from({ length: 50 }, (_, i) => ({ name: param.name, raw: String(i) })),
        ]);
        add(operation, `bracketed ${param.name}[]`, [
          ...baseline(operation, param.name),
          { name: `${param.name}[]`, raw: "a" },
          { name: `${param.name}[x][y]`, raw: "b" },
        ]);
        if (param.required) add(operation, `missing ${param.name}`, baseline(operation, param.name));
      } else {
        add(operation, `path ${param.name} with slash`, [{ name: param.name, raw: "a/b" }]);
        add(operation, `path ${param.name} encoded slash`, [{ name: param.name, raw: "a%2Fb" }]);
        add(operation, `path ${param.name} dot-dot`, [{ name: param.name, raw: ".." }]);
      }
    }
    add(
      operation,
      "all query parameters empty",
      operation.parameters.filter((p) => p.in === "query").map((p) => ({ name: p.name, raw: "" })),
    );
    for (const [name, raw] of [
      ["zzz", "1"],
      ["__proto__", "x"],
      ["__proto__[polluted]", "1"],
      ["constructor[prototype][polluted]", "1"],
      ["%00", "1"],
      ["%zz", "1"],
      ["", "x"],
      ["a", "1=2=3"],
      [encodeURIComponent("ü"), "1"],
      ["x".repeat(5_000), "1"],
    ] as const) {
      add(operation, `unknown parameter ${name.slice(0, 20) || "(empty name)"}`, [...baseline(operation), { name, raw }]);
    }
    const base = restTarget(operation.pathTemplate, {}, "");
    for (const [kind, suffix] of [
      ["query only separators", "?&&&=&="],
      ["query lone question marks", "???"],
      ["query fragment", "?#x"],
      ["query semicolons", "?a=1;b=2"],
    ] as const) {
      cases.push({ door: "rest", method: operation.method, target: base + suffix, headers: {}, kind, route: operation.route, documented: true });
    }
    // Authorization.
    for (const auth of [...auths, ...goodAuths]) add(operation, auth.kind, baseline(operation), { headers: { authorization: auth.value } });
    // Over the 16 KB limit of the request line and headers.
    cases.push({
      door: "rest",
      method: operation.method,
      target: `${base}?${baseline(operation)
        .map((p) => `${p.name}=${p.raw}&`)
        .join("")}pad=${"p".repeat(17_000)}`,
      headers: {},
      kind: "url over 16 KB",
      route: operation.route,
      documented: true,
    });
    cases.push({
      door: "rest",
      method: operation.method,
      target: base,
      headers: { "x-padding": "h".repeat(17_000) },
      kind: "headers over 16 KB",
      route: operation.route,
      documented: true,
    });
    // Bodies: malformed as a whole, then each documented property with each malformed value.
    // A GET gets a few bodies only: its parser runs all the same, but its input is the query.
    const bodies =
      operation.method === "GET"
        ? RAW_BODIES.filter((raw) => ["body bad JSON", "body nested 20000", "body over 100 KB", "content-type multipart"].includes(raw.kind))
        : RAW_BODIES;
    for (const raw of bodies) {
      add(operation, raw.kind, baseline(operation), { body: raw.body, contentType: raw.contentType === "" ? null : raw.contentType });
    }
    for (const whole of operation.method === "GET" ? [] : [null, 7, "x", [1], nestedObject(12), nestedArray(40)]) {
      add(operation, `body JSON ${JSON.stringify(whole).slice(0, 20)}`, baseline(operation), { body: JSON.stringify(whole) });
    }
    for (const [name, schema] of Object.entries(operation.body?.properties ?? {})) {
      for (const value of JSON_VALUES) {
        add(operation, `body ${name}=${value.kind}`, baseline(operation), {
          body: JSON.stringify({ ...validBody(operation, name), [name]: value.value }),
          mustRefuse: mustRefuseValue(schema, value),
        });
      }
      if (operation.body?.required.includes(name))
        add(operation, `body missing ${name}`, baseline(operation), { body: JSON.stringify(validBody(operation, name)), mustRefuse: true });
    }
  }
  // Methods a path does not document: refused in the same error shape (no operation, so no documented statuses).
  for (const path of new Set(operations.map((operation) => operation.pathTemplate))) {
    const target = restTarget(path, {}, "");
    for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"]) {
      if (operations.some((operation) => operation.pathTemplate === path && operation.method === method)) continue;
      const body = method === "HEAD" || method === "OPTIONS" || method === "GET" ? undefined : '{"a":';
      cases.push({
        door: "rest",
        method,
        target,
        headers: body ? { "content-type": "application/json" } : {},
        body,
        kind: `method ${method}`,
        route: `${method} ${path}`,
      });
    }
  }
  // Random combinations: several parameters at once, with a random authorization.
  const allAuths = [...auths, ...goodAuths];
  for (let i = 0; i < RANDOM_CASES.rest; i++) {
    const operation = random.pick(operations);
    const params: { name: string; raw: string }[] = [];
    const kinds: string[] = [];
    let refuse = false;
    for (const param of operation.parameters) {
      if (random.chance(0.6)) {
        const value = random.pick(QUERY_VALUES.filter((v) => v.kind !== "huge-100kb"));
        params.push({ name: param.name, raw: value.raw });
        kinds.push(`${param.name}=${value.kind}`);
        refuse ||= value.refuse === true;
      } else if (param.required && param.in === "query") {
        params.push({ name: param.name, raw: validValueFor(param.name, world) });
      }
    }
    if (random.chance(0.2)) {
      params.push({ name: random.pick(["zzz", "%00", "__proto__", "q[]"]), raw: random.pick(QUERY_VALUES).raw.slice(0, 100) });
      kinds.push("unknown");
    }
    const auth = random.chance(0.3) ? random.pick(allAuths) : null;
    add(operation, `random ${kinds.join(",") || "none"}${auth ? ` ${auth.kind}` : ""}`, params, {
      mustRefuse: refuse,
      headers: auth ? { authorization: auth.value } : {},
    });
  }
  return cases;
}

interface Procedure {
  path: string;
  type: "query" | "mutation";
  fields: string[];
}

/** The field names of a procedure's input object (zod 4), looking through pipes, defaults and optionals. */
function inputFieldsOf(schema: unknown): string[] {
  let def = (schema as { _zod?: { def?: Record<string, unknown> } } | undefined)?._zod?.def;
  for (let i = 0; i < 10 && def; i++) {
    if (def.type === "object") return Object.keys(def.shape as object);
    const inner = (def.in ?? def.innerType ?? def.schema) as { _zod?: { def?: Record<string, unknown> } } | undefined;
    def = inner?._zod?.def;
  }
  return [];
}

function proceduresOf(): Procedure[] {
  const procedures = (appRouter as unknown as { _def: { procedures: Record<string, { _def: { type: string; inputs: unknown[] } }> } })._def.procedures;
  return Object.entries(procedures).map(([path, procedure]) => ({
    path,
    type: procedure._def.type === "mutation" ? "mutation" : "query",
    fields: inputFieldsOf(procedure._def.inputs[0]),
  }));
}

const validJsonFor = (field: string, world: World): unknown =>
  (
    ({
      category: world.category,
      city: world.city,
      slug: world.slug,
      slugA: world.slug,
      slugB: world.slug,
      id: world.id,
      query: "dental",
      limit: 5,
      // Loopback only (the test server allows it, and runs no delivery worker): nothing leaves the machine.
      url: "http://127.0.0.1:9/fuzz",
      events: ["entity.updated"],
    }) as Record<string, unknown>
  )[field] ?? "x";

/** superjson `meta` that a careless deserializer trips over. */
const SUPERJSON_METAS: { kind: string; input: unknown }[] = [
  { kind: "meta bigint of a word", input: { json: { slug: "x" }, meta: { values: { slug: ["bigint"] } } } },
  { kind: "meta invalid Date", input: { json: { slug: "x" }, meta: { values: { slug: ["Date"] } } } },
  { kind: "meta invalid regexp", input: { json: { slug: "/(/" }, meta: { values: { slug: ["regexp"] } } } },
  { kind: "meta set of a string", input: { json: { slug: "x" }, meta: { values: { slug: ["set"] } } } },
  { kind: "meta map of a string", input: { json: { slug: "x" }, meta: { values: { slug: ["map"] } } } },
  { kind: "meta unknown class", input: { json: { slug: {} }, meta: { values: { slug: ["class", "Nope"] } } } },
  { kind: "meta unknown custom", input: { json: { slug: "x" }, meta: { values: { slug: ["custom", "nope"] } } } },
  { kind: "meta symbol", input: { json: { slug: "x" }, meta: { values: { slug: ["symbol", "x"] } } } },
  { kind: "meta unknown type", input: { json: { slug: "x" }, meta: { values: { slug: ["nope"] } } } },
  { kind: "meta number NaN", input: { json: { limit: "NaN" }, meta: { values: { limit: ["number"] } } } },
  { kind: "meta undefined", input: { json: { slug: null }, meta: { values: { slug: ["undefined"] } } } },
  { kind: "meta proto path", input: JSON.parse('{"json":{"slug":"x"},"meta":{"values":{"__proto__.polluted":["Date"]}}}') },
  { kind: "meta referential proto", input: { json: { slug: "x" }, meta: { referentialEqualities: { slug: ["__proto__.polluted"] } } } },
  { kind: "meta referential constructor", input: { json: { slug: "x" }, meta: { referentialEqualities: { slug: ["constructor.prototype.polluted"] } } } },
  { kind: "meta missing path", input: { json: { slug: "x" }, meta: { values: { "a.b.c.d": ["Date"] } } } },
  { kind: "meta as string", input: { json: { slug: "x" }, meta: "x" } },
  { kind: "meta as array", input: { json: { slug: "x" }, meta: [1, 2] } },
  { kind: "meta values array", input: { json: { slug: "x" }, meta: { values: ["Date"] } } },
  { kind: "meta root type", input: { json: "x", meta: { values: ["bigint"] } } },
  { kind: "meta huge path", input: { json: { slug: "x" }, meta: { values: { ["a.".repeat(2_000) + "a"]: ["Date"] } } } },
];

/** Whole inputs (not per field), as the `input` JSON. */
const WHOLE_INPUTS: { kind: string; input: unknown; refuse?: boolean }[] = [
  { kind: "input json null", input: { json: null } },
  { kind: "input json number", input: { json: 123 } },
  { kind: "input json string", input: { json: "x" } },
  { kind: "input json array", input: { json: [1, 2] } },
  { kind: "input json empty object", input: { json: {} } },
  { kind: "input without json wrapper", input: { slug: "x", category: "x" } },
  { kind: "input bare null", input: null },
  { kind: "input bare number", input: 7 },
  { kind: "input deep 12", input: { json: nestedObject(12) }, refuse: true },
  { kind: "input deep 31", input: { json: nestedArray(31) }, refuse: true },
  { kind: "input 500 keys", input: { json: Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`k${i}`, i])) } },
  { kind: "input NUL key", input: { json: { "\u0000": "x" } }, refuse: true },
  ...SUPERJSON_METAS,
];

/** Raw `input=` query values that are not JSON or not decodable. */
const RAW_INPUT_PARAMS: { kind: string; raw: string }[] = [
  { kind: "input empty", raw: "" },
  { kind: "input not JSON", raw: "not-json" },
  { kind: "input truncated JSON", raw: encodeURIComponent('{"json":') },
  { kind: "input bad escape", raw: "%zz" },
  { kind: "input lone percent", raw: "%" },
  { kind: "input raw NUL in JSON string", raw: encodeURIComponent('{"json":{"slug":"a').concat("%00", encodeURIComponent('"}}')) },
  { kind: "input lone surrogate bytes", raw: encodeURIComponent('{"json":{"slug":"').concat("%ED%A0%80", encodeURIComponent('"}}')) },
  { kind: "input nested 15000", raw: "[".repeat(15_000) },
  { kind: "input nested 33 objects", raw: encodeURIComponent('{"json":'.repeat(33) + "1" + "}".repeat(33)) },
  { kind: "input single quotes", raw: encodeURIComponent("{'json':{}}") },
  { kind: "input trailing garbage", raw: encodeURIComponent('{"json":{}}xyz') },
  { kind: "input BOM", raw: encodeURIComponent('\ufeff{"json":{}}') },
];

/** POST bodies that are not the JSON a procedure wants. */
const RAW_BODIES: { kind: string; body: string | Buffer; contentType?: string }[] = [
  { kind: "body bad JSON", body: "{bad json" },
  { kind: "body truncated JSON", body: '{"json":' },
  { kind: "body empty", body: "" },
  { kind: "body NUL bytes", body: "\u0000\u0000\u0000" },
  { kind: "body nested 20000", body: "[".repeat(20_000) },
  { kind: "body nested 20000 objects", body: '{"a":'.repeat(20_000) },
  { kind: "body nested 40 closed", body: '{"json":' + "[".repeat(40) + "]".repeat(40) + "}" },
  { kind: "body JSON null", body: "null" },
  { kind: "body JSON string", body: '"x"' },
  { kind: "body trailing garbage", body: '{"json":{}}}}' },
  { kind: "body BOM", body: '\ufeff{"json":{}}' },
  { kind: "body over 100 KB", body: JSON.stringify({ json: { slug: HUGE } }) },
  { kind: "body invalid UTF-8", body: Buffer.from([0x7b, 0x22, 0x6a, 0x73, 0x6f, 0x6e, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc0, 0xaf, 0x22, 0x7d]) },
  { kind: "body UTF-16", body: Buffer.from('{"json":{"slug":"x"}}', "utf16le"), contentType: "application/json; charset=utf-16" },
  { kind: "content-type text/plain", body: '{"json":{"slug":"x"}}', contentType: "text/plain" },
  { kind: "content-type form", body: "json=1&slug=x", contentType: "application/x-www-form-urlencoded" },
  {
    kind: "content-type multipart",
    body: '--x\r\nContent-Disposition: form-data; name="slug"\r\n\r\nx\r\n--x--\r\n',
    contentType: "multipart/form-data; boundary=x",
  },
  { kind: "content-type multipart without boundary", body: "garbage", contentType: "multipart/form-data" },
  { kind: "content-type octet-stream", body: Buffer.from([0, 1, 2, 3, 255]), contentType: "application/octet-stream" },
  { kind: "content-type latin1 charset", body: '{"json":{"slug":"caf\u00e9"}}', contentType: "application/json; charset=latin1" },
  { kind: "content-type unknown charset", body: '{"json":{}}', contentType: "application/json; charset=nope" },
  { kind: "content-type garbage", body: '{"json":{}}', contentType: ";;;=" },
  { kind: "content-type none", body: '{"json":{}}', contentType: "" },
];

function trpcCases(procedures: Procedure[], world: World, random: Random): FuzzCase[] {
  const cases: FuzzCase[] = [];
  const auths = [
    ...badAuthorizations(world.keys.developer),
    ...Object.entries(world.keys).map(([kind, key]) => ({ kind: `auth-${kind}`, value: `Bearer ${key}` })),
  ];
  const withInput = (procedure: Procedure, method: string, input: unknown, kind: string, extra: Partial<FuzzCase> = {}): FuzzCase => {
    const json = input === undefined ? undefined : JSON.stringify(input);
    const base: FuzzCase = { door: "trpc", method, target: `/trpc/${procedure.path}`, headers: {}, kind, route: procedure.path, ...extra };
    if (method === "GET") return { ...base, target: json === undefined ? base.target : `${base.target}?input=${encodeURIComponent(json)}` };
    return { ...base, headers: { "content-type": "application/json", ...base.headers }, body: json ?? "" };
  };
  const validInput = (procedure: Procedure, except?: string) =>
    Object.fromEntries(procedure.fields.filter((f) => f !== except).map((f) => [f, validJsonFor(f, world)]));

  for (const procedure of procedures) {
    const method = procedure.type === "query" ? "GET" : "POST";
    cases.push(withInput(procedure, method, undefined, "no input"));
    cases.push(withInput(procedure, method, { json: validInput(procedure) }, "plausible input"));
    cases.push(withInput(procedure, method === "GET" ? "POST" : "GET", { json: validInput(procedure) }, `wrong method ${method === "GET" ? "POST" : "GET"}`));
    for (const method2 of ["PUT", "DELETE", "PATCH"]) cases.push(withInput(procedure, method2, { json: {} }, `method ${method2}`));
    for (const whole of WHOLE_INPUTS) cases.push(withInput(procedure, method, whole.input, whole.kind, { mustRefuse: whole.refuse }));
    // Every field, every malformed JSON value.
    for (const field of procedure.fields) {
      for (const value of JSON_VALUES) {
        if (value.bodyOnly && method === "GET") continue;
        cases.push(
          withInput(procedure, method, { json: { ...validInput(procedure, field), [field]: value.value } }, `${field}=${value.kind}`, {
            mustRefuse: value.refuse,
          }),
        );
      }
      cases.push(withInput(procedure, method, { json: validInput(procedure, field) }, `missing ${field}`));
    }
    if (method === "GET") {
      for (const raw of RAW_INPUT_PARAMS)
        cases.push({ door: "trpc", method, target: `/trpc/${procedure.path}?input=${raw.raw}`, headers: {}, kind: raw.kind, route: procedure.path });
      cases.push({ door: "trpc", method, target: `/trpc/${procedure.path}?input=a&input=b`, headers: {}, kind: "input repeated", route: procedure.path });
      cases.push({
        door: "trpc",
        method,
        target: `/trpc/${procedure.path}?input=${encodeURIComponent('{"json":{}}')}&zzz=1&__proto__=x`,
        headers: {},
        kind: "unknown query parameters",
        route: procedure.path,
      });
    }
    // Bodies and content types go to every procedure by POST (a query answers 405 after reading them).
    for (const raw of RAW_BODIES) {
      const headers: Record<string, string> = raw.contentType === "" ? {} : { "content-type": raw.contentType ?? "application/json" };
      cases.push({ door: "trpc", method: "POST", target: `/trpc/${procedure.path}`, headers, body: raw.body, kind: raw.kind, route: procedure.path });
    }
    for (const auth of auths) cases.push(withInput(procedure, method, { json: validInput(procedure) }, auth.kind, { headers: { authorization: auth.value } }));
  }

  // Paths that name no procedure, or name one oddly.
  for (const path of [
    "nope",
    "search",
    "search.",
    ".",
    "..",
    "__proto__",
    "constructor",
    "toString",
    "hasOwnProperty",
    "search.searchBusinesses.x",
    "search..searchBusinesses",
    "%00",
    "%zz",
    "%",
    "a%2Cb",
    "x".repeat(5_000),
    encodeURIComponent("ü"),
    "search.searchBusinesses%00",
  ]) {
    cases.push({ door: "trpc", method: "GET", target: `/trpc/${path}`, headers: {}, kind: "unknown procedure path", route: `(unknown) ${path.slice(0, 40)}` });
    cases.push({
      door: "trpc",
      method: "POST",
      target: `/trpc/${path}`,
      headers: { "content-type": "application/json" },
      body: '{"json":{}}',
      kind: "unknown procedure path",
      route: `(unknown) ${path.slice(0, 40)}`,
    });
  }
  cases.push({ door: "trpc", method: "GET", target: "/trpc", headers: {}, kind: "trpc root", route: "(root)" });
  cases.push({ door: "trpc", method: "GET", target: "/trpc/", headers: {}, kind: "trpc root", route: "(root)" });

  // Batches.
  const queries = procedures.filter((p) => p.type === "query");
  const mutations = procedures.filter((p) => p.type === "mutation");
  const batchInput = (count: number, make: (i: number) => unknown) =>
    encodeURIComponent(JSON.stringify(Object.fromEntries(Array.from({ length: count }, (_, i) => [String(i), make(i)]))));
  const batch = (kind: string, method: string, names: string[], query: string, body?: string) =>
    cases.push({
      door: "trpc",
      method,
      target: `/trpc/${names.join(",")}${query}`,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body,
      kind,
      route: `batch of ${names.length}`,
    });
  const someQueries = (n: number) => Array.from({ length: n }, (_, i) => queries[i % queries.length]!.path);
  batch("batch of 3 queries, malformed inputs", "GET", someQueries(3), `?batch=1&input=${batchInput(3, (i) => JSON_VALUES[i]!.value)}`);
  batch("batch of 3 queries, NUL inputs", "GET", someQueries(3), `?batch=1&input=${batchInput(3, () => ({ json: { slug: "a\u0000" } }))}`);
  batch("batch of 3, no input", "GET", someQueries(3), "?batch=1");
  batch("batch input is an array", "GET", someQueries(3), `?batch=1&input=${encodeURIComponent("[1,2,3]")}`);
  batch("batch input not JSON", "GET", someQueries(3), "?batch=1&input=nope");
  batch("batch with unknown names", "GET", ["a", "b", "c"], "?batch=1");
  batch("batch with empty names", "GET", ["", "", ""], "?batch=1");
  batch("batch with proto names", "GET", ["__proto__", "constructor", "toString"], "?batch=1");
  batch("batch mixing a mutation into GET", "GET", [queries[0]!.path, mutations[0]!.path], "?batch=1");
  batch("batch flag 0", "GET", someQueries(3), "?batch=0");
  batch("batch flag word", "GET", someQueries(3), "?batch=yes");
  batch("batch flag repeated", "GET", someQueries(3), "?batch=1&batch=1");
  batch("batch of 11 (one over the limit)", "GET", someQueries(11), "?batch=1");
  batch("batch of 120", "GET", someQueries(120), `?batch=1&input=${batchInput(120, () => ({ json: {} }))}`);
  batch(
    "batch of 120 by POST",
    "POST",
    Array.from({ length: 120 }, (_, i) => mutations[i % mutations.length]!.path),
    "?batch=1",
    JSON.stringify(Object.fromEntries(Array.from({ length: 120 }, (_, i) => [String(i), { json: {} }]))),
  );
  batch(
    "batch of mutations, malformed bodies",
    "POST",
    mutations.slice(0, 4).map((m) => m.path),
    "?batch=1",
    JSON.stringify({ 0: { json: null }, 1: { json: { slug: "\u0000" } }, 2: "x", 3: { json: nestedObject(12) } }),
  );
  batch(
    "batch POST bad JSON",
    "POST",
    mutations.slice(0, 3).map((m) => m.path),
    "?batch=1",
    "{bad",
  );
  batch(
    "batch POST deep body",
    "POST",
    mutations.slice(0, 3).map((m) => m.path),
    "?batch=1",
    "[".repeat(20_000),
  );
  batch("batch POST of queries", "POST", someQueries(3), "?batch=1", JSON.stringify({ 0: { json: {} } }));

  // Random: a procedure, several fields with random values, sometimes an authorization.
  for (let i = 0; i < RANDOM_CASES.trpc; i++) {
    const procedure = random.pick(procedures);
    const method = procedure.type === "query" ? "GET" : "POST";
    const input: Record<string, unknown> = {};
    const kinds: string[] = [];
    let refuse = false;
    for (const field of procedure.fields) {
      if (random.chance(0.5)) {
        const value = random.pick(JSON_VALUES.filter((v) => !(v.bodyOnly && method === "GET")));
        input[field] = value.value;
        kinds.push(`${field}=${value.kind}`);
        refuse ||= value.refuse === true;
      } else if (random.chance(0.7)) input[field] = validJsonFor(field, world);
    }
    if (random.chance(0.15)) {
      // defineProperty: a plain assignment to "__proto__" would set the prototype, not a field.
      Object.defineProperty(input, random.pick(["zzz", "__proto__", "constructor", "\u00e9"]), {
        value: random.pick(JSON_VALUES.filter((v) => !v.bodyOnly)).value,
        enumerable: true,
      });
      kinds.push("unknown-field");
    }
    const auth = random.chance(0.4) ? random.pick(auths) : null;
    cases.push(
      withInput(procedure, method, { json: input }, `random ${kinds.join(",") || "none"}${auth ? ` ${auth.kind}` : ""}`, {
        mustRefuse: refuse,
        headers: auth ? { authorization: auth.value } : {},
      }),
    );
  }
  // Node refuses a request line plus headers over 16 KB before any door sees it (REST tests that on
  // purpose); here every request must reach the tRPC door, so oversized random GETs lose their key,
  // and those still too large are left out.
  return cases
    .map((fuzzCase) => (requestHeadBytes(fuzzCase) > 15_000 ? { ...fuzzCase, headers: {}, kind: fuzzCase.kind.replace(/ auth-[\w-]+$/, "") } : fuzzCase))
    .filter((fuzzCase) => requestHeadBytes(fuzzCase) <= 15_100);
}

function requestHeadBytes(fuzzCase: FuzzCase): number {
  return fuzzCase.target.length + Object.entries(fuzzCase.headers).reduce((sum, [name, value]) => sum + name.length + String(value).length + 4, 0);
}

const MCP_ACCEPT = "application/json, text/event-stream";

const jsonTypeOf = (value: unknown) => (value === null ? "null" : Array.isArray(value) ? "array" : Number.isInteger(value) ? "integer" : typeof value);

function fitsType(schema: JsonSchemaProperty, value: unknown): boolean {
  if (schema.type === undefined) return true;
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  const actual = jsonTypeOf(value);
  return types.some((type) => type === actual || (type === "number" && actual === "integer"));
}

/** Whether a value must be refused in a field with this advertised schema. */
function mustRefuseValue(schema: JsonSchemaProperty | undefined, value: JsonValue): boolean {
  if (value.refuse) return true;
  if (!schema) return false;
  if (!fitsType(schema, value.value)) return true;
  if (typeof value.value === "string" && schema.maxLength !== undefined && value.value.length > schema.maxLength) return true;
  return schema.enum !== undefined && !schema.enum.includes(value.value);
}

function mcpCases(tools: McpTool[], world: World, random: Random): FuzzCase[] {
  const cases: FuzzCase[] = [];
  const headers = { "content-type": "application/json", accept: MCP_ACCEPT };
  let nextId = 1;
  const post = (kind: string, route: string, body: string | Buffer, extra: Partial<FuzzCase> = {}) => {
    const { headers: extraHeaders, ...rest } = extra;
    cases.push({ door: "mcp", method: "POST", target: "/api/mcp", headers: { ...headers, ...extraHeaders }, body, kind, route, ...rest });
  };
  const rpc = (method: unknown, params?: unknown) => JSON.stringify({ jsonrpc: "2.0", id: nextId++, method, ...(params === undefined ? {} : { params }) });
  const call = (tool: string, args: unknown) => rpc("tools/call", { name: tool, arguments: args });

  for (const raw of RAW_BODIES) {
    const contentType = raw.contentType === undefined ? "application/json" : raw.contentType;
    cases.push({
      door: "mcp",
      method: "POST",
      target: "/api/mcp",
      headers: contentType ? { "content-type": contentType, accept: MCP_ACCEPT } : { accept: MCP_ACCEPT },
      body: raw.body,
      kind: raw.kind,
      route: "(transport)",
    });
  }
  for (const [kind, body] of [
    ["JSON-RPC empty object", "{}"],
    ["JSON-RPC empty array", "[]"],
    ["JSON-RPC number", "1"],
    ["JSON-RPC version 1.0", JSON.stringify({ jsonrpc: "1.0", id: 1, method: "tools/list" })],
    ["JSON-RPC no version", JSON.stringify({ id: 1, method: "tools/list" })],
    ["JSON-RPC id object", JSON.stringify({ jsonrpc: "2.0", id: { a: 1 }, method: "tools/list" })],
    ["JSON-RPC id NUL string", JSON.stringify({ jsonrpc: "2.0", id: "\u0000", method: "tools/list" })],
    [
      "JSON-RPC batch of two",
      JSON.stringify([
        { jsonrpc: "2.0", id: 1, method: "tools/list" },
        { jsonrpc: "2.0", id: 2, method: "nope" },
      ]),
    ],
    ["JSON-RPC batch of 200", JSON.stringify(Array.from({ length: 200 }, (_, i) => ({ jsonrpc: "2.0", id: i, method: "tools/list" })))],

    ["JSON-RPC params a string", JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: "x" })],
    ["JSON-RPC deep params", JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: nestedObject(30) })],
  ] as const) {
    post(kind, "(json-rpc)", body);
  }
  for (const method of [
    "nope",
    "tools/nope",
    "__proto__",
    "constructor",
    "toString",
    "",
    "a\u0000b",
    "x".repeat(10_000),
    42,
    null,
    ["tools/list"],
    "resources/read",
    "prompts/get",
    "logging/setLevel",
    "completion/complete",
    "sampling/createMessage",
  ]) {
    post("unknown or odd method", `method ${JSON.stringify(method).slice(0, 40)}`, rpc(method, { name: "x" }));
  }
  post("notification of an unknown method", "(notification)", JSON.stringify({ jsonrpc: "2.0", method: "notifications/nope" }), { notification: true });
  post("JSON-RPC response object", "(notification)", JSON.stringify({ jsonrpc: "2.0", id: 1, result: {} }), { notification: true });
  post("resources/read of an odd uri", "resources/read", rpc("resources/read", { uri: "directory://\u0000/../x" }));
  post("prompts/get of an unknown prompt", "prompts/get", rpc("prompts/get", { name: "__proto__", arguments: { a: "\u0000" } }));
  for (const [kind, params] of [
    ["tools/call unknown tool", { name: "nope", arguments: {} }],
    ["tools/call proto tool", { name: "__proto__", arguments: {} }],
    ["tools/call name number", { name: 7, arguments: {} }],
    ["tools/call name NUL", { name: "get_business_profile\u0000", arguments: {} }],
    ["tools/call without name", { arguments: {} }],
    ["tools/call arguments string", { name: tools[0]!.name, arguments: "x" }],
    ["tools/call arguments array", { name: tools[0]!.name, arguments: [1] }],
    ["tools/call arguments null", { name: tools[0]!.name, arguments: null }],
  ] as const) {
    post(kind, "tools/call", rpc("tools/call", params));
  }
  // Doors before the transport: Host, Origin, Accept, methods, credentials.
  for (const [kind, extraHeaders] of [
    ["wrong Host", { host: "evil.example.com" }],
    ["wrong Host with port", { host: "evil.example.com:80" }],
    ["malformed Host", { host: "[::1" }],
    ["long Host", { host: `${"a".repeat(300)}.example` }],
    ["suffix Host", { host: "directory.test.evil.example" }],
    ["wrong Origin", { origin: "http://evil.example.com" }],
    ["null Origin", { origin: "null" }],
    ["garbage Origin", { origin: "%%%" }],
    ["Accept JSON only", { accept: "application/json" }],
    ["Accept HTML", { accept: "text/html" }],
    ["Accept missing", { accept: "" }],
  ] as const) {
    post(kind, "(transport)", rpc("tools/list"), { headers: extraHeaders });
  }
  for (const auth of [...badAuthorizations(world.keys.developer), { kind: "auth-business", value: `Bearer ${world.keys.business}` }]) {
    post(auth.kind, `tools/call ${tools[0]!.name}`, call(tools[0]!.name, { slug: world.slug }), { headers: { authorization: auth.value } });
  }
  for (const method of ["GET", "PUT", "DELETE", "PATCH"]) {
    cases.push({ door: "mcp", method, target: "/api/mcp", headers: { accept: MCP_ACCEPT }, kind: `method ${method}`, route: "(transport)" });
  }
  cases.push({
    door: "mcp",
    method: "POST",
    target: "/api/mcp/messages?sessionId=%00",
    headers,
    body: rpc("tools/list"),
    kind: "SSE message, bad session",
    route: "(sse)",
  });
  cases.push({ door: "mcp", method: "POST", target: "/api/mcp/messages", headers, body: "{bad", kind: "SSE message, bad JSON", route: "(sse)" });

  // Every tool, every argument, every malformed value; expectations from the advertised schema.
  const validArgs = (tool: McpTool, except?: string) =>
    Object.fromEntries((tool.inputSchema.required ?? []).filter((name) => name !== except).map((name) => [name, validJsonFor(name, world)]));
  for (const tool of tools) {
    const properties = tool.inputSchema.properties ?? {};
    post("plausible arguments", `tools/call ${tool.name}`, call(tool.name, validArgs(tool)));
    post("no arguments", `tools/call ${tool.name}`, rpc("tools/call", { name: tool.name }));
    post("deep arguments", `tools/call ${tool.name}`, call(tool.name, { ...validArgs(tool), deep: nestedObject(30) }), { mustRefuse: true });
    post(
      "deep arguments 20000",
      `tools/call ${tool.name}`,
      `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"${tool.name}","arguments":${"[".repeat(20_000)}}}`,
    );
    post("unknown argument", `tools/call ${tool.name}`, call(tool.name, { ...validArgs(tool), zzz: "\u0000" }));
    for (const [name, schema] of Object.entries(properties)) {
      for (const value of JSON_VALUES) {
        post(`${name}=${value.kind}`, `tools/call ${tool.name}`, call(tool.name, { ...validArgs(tool, name), [name]: value.value }), {
          mustRefuse: mustRefuseValue(schema, value),
        });
      }
      if (tool.inputSchema.required?.includes(name))
        post(`missing ${name}`, `tools/call ${tool.name}`, call(tool.name, validArgs(tool, name)), { mustRefuse: true });
    }
  }
  for (let i = 0; i < RANDOM_CASES.mcp; i++) {
    const tool = random.pick(tools);
    const args: Record<string, unknown> = {};
    const kinds: string[] = [];
    let refuse = false;
    for (const [name, schema] of Object.entries(tool.inputSchema.properties ?? {})) {
      if (random.chance(0.5)) {
        const value = random.pick(JSON_VALUES);
        args[name] = value.value;
        kinds.push(`${name}=${value.kind}`);
        refuse ||= mustRefuseValue(schema, value);
      } else if (tool.inputSchema.required?.includes(name)) args[name] = validJsonFor(name, world);
    }
    const auth = random.chance(0.2) ? random.pick(badAuthorizations(world.keys.developer)) : null;
    post(`random ${kinds.join(",") || "none"}${auth ? ` ${auth.kind}` : ""}`, `tools/call ${tool.name}`, call(tool.name, args), {
      mustRefuse: refuse,
      headers: auth ? { authorization: auth.value } : undefined,
    });
  }
  return cases;
}

// ---------------------------------------------------------------------------------------------
// The test
// ---------------------------------------------------------------------------------------------

let server: TestServer;
let world: World;

beforeAll(async () => {
  server = await startTestServer({
    seed: { businesses: 200 },
    rateLimits: {
      anonymousPerDay: 1e9,
      openPerMinute: 1e9,
      keyedPerMonth: 1e9,
      leadsPerAddressPerHour: 1e9,
      leadsPerKeyPerHour: 1e9,
      leadsPerBusinessPerDay: 1e9,
    },
  });
  const { db } = server.database;
  const [business] = await db
    .select({ id: businesses.id, slug: businesses.slug, categorySlug: businesses.categorySlug, cityId: businesses.cityId })
    .from(businesses)
    .orderBy(businesses.slug)
    .limit(1);
  const [category] = await db.select({ name: categories.name }).from(categories).orderBy(categories.slug).limit(1);
  const [city] = await db.select({ name: cities.name }).from(cities).orderBy(cities.id).limit(1);
  if (!business || !category || !city) throw new Error("the seeded world is empty");
  const key = async (kind: "partner" | "developer" | "business") =>
    (await createApiKey(db, { kind, label: `fuzz ${kind}`, ...(kind === "business" ? { businessSlug: business.slug } : {}) })).key;
  world = {
    slug: business.slug,
    id: business.id,
    category: category.name,
    city: city.name,
    keys: { admin: server.adminKey, partner: await key("partner"), developer: await key("developer"), business: await key("business") },
  };
});

afterAll(async () => {
  agent.destroy();
  await server?.close();
});

async function restOperations(): Promise<{ operations: RestOperation[]; documentedStatuses: Map<string, Set<string>> }> {
  const response = await fetch(`${server.url}/api/openapi.json`);
  const document = (await response.json()) as { paths: Record<string, Record<string, OpenApiOperation>> };
  const operations: RestOperation[] = [];
  const documentedStatuses = new Map<string, Set<string>>();
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const route = `${method.toUpperCase()} ${path}`;
      const bodySchema = operation.requestBody?.content?.["application/json"]?.schema;
      operations.push({
        route,
        method: method.toUpperCase(),
        pathTemplate: path,
        parameters: (operation.parameters ?? []).filter((p) => p.in === "query" || p.in === "path"),
        body: operation.requestBody ? { properties: bodySchema?.properties ?? {}, required: bodySchema?.required ?? [] } : null,
      });
      documentedStatuses.set(route, new Set(Object.keys(operation.responses)));
    }
  }
  return { operations, documentedStatuses };
}

async function mcpTools(): Promise<McpTool[]> {
  const response = await fetch(`${server.url}/api/mcp`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: MCP_ACCEPT },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
  });
  const body = (await response.json()) as { result: { tools: McpTool[] } };
  return body.result.tools;
}

function summarise(failures: Failure[]): string {
  const classes = new Map<string, { count: number; example: Failure }>();
  for (const failure of failures) {
    const key = `${failure.door} | ${failure.route} | ${failure.problem} | ${failure.status}`;
    const entry = classes.get(key);
    if (entry) entry.count++;
    else classes.set(key, { count: 1, example: failure });
  }
  const lines = [...classes.entries()].map(
    ([key, { count, example }]) => `${count}x ${key}\n    e.g. ${example.kind}: ${example.method} ${example.target.slice(0, 160)}\n    body: ${example.body}`,
  );
  return `${failures.length} failures in ${classes.size} classes (door | route | problem | status):\n${lines.join("\n")}`;
}

describe("fuzzing every door with malformed requests", () => {
  it("answers thousands of malformed REST, tRPC and MCP requests with documented, well-shaped, leak-free refusals", async () => {
    const random = createRandom(FUZZ_SEED);
    const { operations, documentedStatuses } = await restOperations();
    const procedures = proceduresOf();
    const tools = await mcpTools();
    expect(operations.length).toBeGreaterThan(0);
    expect(procedures.length).toBeGreaterThan(0);
    expect(tools.length).toBeGreaterThan(0);

    const cases = [...restCases(operations, world, random), ...trpcCases(procedures, world, random), ...mcpCases(tools, world, random)];
    // Interleave the doors so slow and fast cases share the workers evenly.
    for (let i = cases.length - 1; i > 0; i--) {
      const j = random.int(i + 1);
      [cases[i], cases[j]] = [cases[j]!, cases[i]!];
    }
    expect(cases.length).toBeGreaterThanOrEqual(MIN_REQUESTS);

    const failures: Failure[] = [];
    const sent = { rest: 0, trpc: 0, mcp: 0 };
    const statuses = new Map<string, number>();
    const startedAt = Date.now();
    await runAll(server.url, cases, (fuzzCase, outcome) => {
      sent[fuzzCase.door]++;
      const statusKey = `${fuzzCase.door} ${outcome.status}`;
      statuses.set(statusKey, (statuses.get(statusKey) ?? 0) + 1);
      for (const problem of problemsOf(fuzzCase, outcome, documentedStatuses)) {
        failures.push({
          door: fuzzCase.door,
          method: fuzzCase.method,
          target: fuzzCase.target,
          route: fuzzCase.route,
          kind: fuzzCase.kind,
          status: outcome.status,
          problem,
          body: (outcome.error ?? outcome.text).slice(0, 200),
        });
      }
    });
    const seconds = (Date.now() - startedAt) / 1000;
    if (failures.length > 0 || process.env.FUZZ_VERBOSE) {
      const histogram = [...statuses.entries()]
        .sort()
        .map(([key, count]) => `${key}: ${count}`)
        .join(", ");
      console.warn(
        `fuzz: ${cases.length} requests (REST ${sent.rest}, tRPC ${sent.trpc}, MCP ${sent.mcp}) in ${seconds.toFixed(1)} s\nstatuses: ${histogram}\n${summarise(failures)}`,
      );
    }
    expect(sent.rest + sent.trpc + sent.mcp).toBe(cases.length);
    expect(failures.slice(0, 20), `${failures.length} failures; first 20 shown`).toEqual([]);
  }, 600_000);
});
