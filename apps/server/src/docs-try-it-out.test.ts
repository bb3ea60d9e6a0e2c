import { describe, expect, it } from "vitest";
import { exampleUrl, keyKindOf, sendExample, type ExampleRequest } from "./openapi-examples";
import { exampleServerForThisFile, recordedExamples as examples } from "./openapi-examples-server";
import type { OpenApiParameter as Parameter } from "./testing";

/**
 * /docs's "Try it out" on the demo world: Swagger UI pre-fills each parameter (below, as it does),
 * and the first click must answer something, not an empty list narrowed by examples that do not
 * belong together (a Berlin point beside a Buenos Aires search).
 */

const fixture = exampleServerForThisFile();

/**
 * What swagger-ui (5.x, OpenAPI 3) puts in a parameter's field when "Try it out" opens: the first
 * of `examples`, else the parameter's `example`, its schema's `example`, its schema's `default`,
 * its own `default`. Undefined: the field stays empty and nothing is sent.
 */
function prefilled(parameter: Parameter): unknown {
  const firstExample = Object.values(parameter.examples ?? {})[0];
  const candidates = [firstExample?.value, parameter.example, parameter.schema?.example, parameter.schema?.default, parameter.default];
  return candidates.find((value) => value !== undefined);
}

/** Every string a recorded response holds at a path marked volatile, times aside: ids a recorded call made (a lead, a webhook). */
function madeByRecordedCalls(): Set<string> {
  const made = new Set<string>();
  const collect = (value: unknown, path: string, volatile: Set<string>) => {
    if (Array.isArray(value)) for (const item of value) collect(item, `${path}[]`, volatile);
    else if (value && typeof value === "object") for (const [key, item] of Object.entries(value)) collect(item, path ? `${path}.${key}` : key, volatile);
    else if (typeof value === "string" && volatile.has(path) && !/^\d{4}-\d{2}-\d{2}T/.test(value)) made.add(value);
  };
  for (const example of Object.values(examples.operations)) collect(example.response, "", new Set(example.volatile));
  return made;
}

/** Whether a recorded value holds an id a recorded call made. */
function holdsMade(value: unknown, made: Set<string>): boolean {
  if (typeof value === "string") return made.has(value);
  if (value && typeof value === "object") return Object.values(value).some((item) => holdsMade(item, made));
  return false;
}

/** The top-level lists of a body, by name. */
function listsOf(body: unknown): Record<string, unknown[]> {
  if (!body || typeof body !== "object" || Array.isArray(body)) return {};
  return Object.fromEntries(Object.entries(body).filter((entry): entry is [string, unknown[]] => Array.isArray(entry[1])));
}

describe("/docs Try it out on the demo world", () => {
  it("pre-fills every required parameter, and no optional one the recorded call did not send", () => {
    const problems: string[] = [];
    for (const operation of fixture.operations.values()) {
      const { path } = operation;
      const recorded = examples.operations[operation.operationId]!.request;
      for (const parameter of operation.parameters ?? []) {
        const value = prefilled(parameter);
        const sentByRecording = (parameter.in === "path" ? recorded.pathParams : recorded.query)?.[parameter.name] !== undefined;
        if (parameter.required && value === undefined) problems.push(`${path} ${parameter.name}: required, not pre-filled`);
        // A default pre-fills the value the server takes anyway; an example would change the answer.
        if (!parameter.required && !sentByRecording && value !== undefined && value !== parameter.schema?.default && value !== parameter.default) {
          problems.push(`${path} ${parameter.name}: optional, pre-filled with ${JSON.stringify(value)}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it("each read, sent with its pre-filled parameters, answers 2xx, and each list its recorded call shows is not empty", async () => {
    const made = madeByRecordedCalls();
    const problems: string[] = [];
    let sent = 0;
    for (const operation of fixture.operations.values()) {
      if (operation.method !== "GET") continue;
      const { path } = operation;
      const example = examples.operations[operation.operationId]!;
      const request: ExampleRequest = { method: "GET", path, pathParams: {}, query: {}, headers: example.request.headers };
      for (const parameter of operation.parameters ?? []) {
        const value = prefilled(parameter);
        if (value === undefined) continue;
        const target = parameter.in === "path" ? request.pathParams! : request.query!;
        // Swagger UI sends a field's text: a number or a boolean as written, anything else as JSON.
        target[parameter.name] = typeof value === "string" ? value : JSON.stringify(value);
      }
      // An id a recorded write made (a lead, a webhook, a correction) is not in a fresh demo world.
      if ([...Object.values(request.pathParams!), ...Object.values(request.query!)].some((value) => made.has(value))) continue;
      const kind = keyKindOf(request);
      expect(kind === null || kind in fixture.keys).toBe(true);
      const live = await sendExample(fixture.server.url, request, fixture.keys);
      sent++;
      if (live.status < 200 || live.status > 299) {
        problems.push(`${operation.operationId} (${exampleUrl(request)}): ${live.status} ${JSON.stringify(live.body).slice(0, 200)}`);
        continue;
      }
      const lists = listsOf(live.body);
      for (const [name, items] of Object.entries(listsOf(example.response))) {
        // A list of what recorded writes made (this key's webhooks, the corrections proposed) is empty in a fresh demo world.
        if (items.length > 0 && !holdsMade(items, made) && !(lists[name]?.length ?? 0))
          problems.push(`${operation.operationId} (${exampleUrl(request)}): ${name} is empty`);
      }
    }
    expect(sent).toBeGreaterThan(10);
    expect(problems).toEqual([]);
  });
});
