import { appRouter } from "@directory/api";
import { RANDOM_CASES, validJsonFor, type FuzzCase, type Random, type World } from "./model";
import { badAuthorizations, JSON_VALUES, nestedObject, RAW_BODIES, RAW_INPUT_PARAMS, WHOLE_INPUTS } from "./malformed-values";
import { namedCases } from "./named-values";

/** tRPC cases, generated from the procedures of the app router. */

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

export function proceduresOf(): Procedure[] {
  const procedures = (appRouter as unknown as { _def: { procedures: Record<string, { _def: { type: string; inputs: unknown[] } }> } })._def.procedures;
  return Object.entries(procedures).map(([path, procedure]) => ({
    path,
    type: procedure._def.type === "mutation" ? "mutation" : "query",
    fields: inputFieldsOf(procedure._def.inputs[0]),
  }));
}

export function trpcCases(procedures: Procedure[], world: World, random: Random): FuzzCase[] {
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
      for (const { value, inputs, kind, extra } of namedCases(field, procedure.fields, world)) {
        cases.push(withInput(procedure, method, { json: { ...inputs, [field]: value } }, kind, extra));
      }
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
