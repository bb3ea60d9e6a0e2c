import { mustRefuseValue, RANDOM_CASES, validJsonFor, type FuzzCase, type JsonSchemaProperty, type Random, type World } from "./model";
import { badAuthorizations, JSON_VALUES, nestedObject, RAW_BODIES } from "./malformed-values";
import { namedCases } from "./named-values";

/** MCP cases, generated from the tools the live server lists. */

export interface McpTool {
  name: string;
  inputSchema: { properties?: Record<string, JsonSchemaProperty>; required?: string[] };
}

export const MCP_ACCEPT = "application/json, text/event-stream";

export function mcpCases(tools: McpTool[], world: World, random: Random): FuzzCase[] {
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
      for (const { value, inputs, kind, extra } of namedCases(name, Object.keys(properties), world)) {
        post(kind, `tools/call ${tool.name}`, call(tool.name, { ...inputs, [name]: value }), extra);
      }
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

/** The tools the live MCP door lists. */
export async function mcpTools(baseUrl: string): Promise<McpTool[]> {
  const response = await fetch(`${baseUrl}/api/mcp`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: MCP_ACCEPT },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
  });
  const body = (await response.json()) as { result: { tools: McpTool[] } };
  return body.result.tools;
}
