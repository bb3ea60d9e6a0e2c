import { mustRefuseValue, RANDOM_CASES, validJsonFor, type FuzzCase, type JsonSchemaProperty, type Random, type World } from "./model";
import { badAuthorizations, JSON_VALUES, nestedArray, nestedObject, QUERY_VALUES, RAW_BODIES } from "./malformed-values";
import { namedCases } from "./named-values";

/** REST cases, generated from the OpenAPI document the live server serves. */

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

export function restCases(operations: RestOperation[], world: World, random: Random): FuzzCase[] {
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
      const names = operation.parameters.map((p) => p.name);
      for (const { value, inputs, kind, extra } of namedCases(param.name, names, world)) {
        const others = Object.entries(inputs).map(([name, other]) => ({ name, raw: encodeURIComponent(other) }));
        add(operation, `${param.in} ${kind}`, [...others, { name: param.name, raw: encodeURIComponent(value) }], extra);
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

/** The REST operations of the live OpenAPI document, and the statuses each documents. */
export async function restOperations(baseUrl: string): Promise<{ operations: RestOperation[]; documentedStatuses: Map<string, Set<string>> }> {
  const response = await fetch(`${baseUrl}/api/openapi.json`);
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
