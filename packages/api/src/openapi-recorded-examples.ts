import OPENAPI_EXAMPLES from "./openapi-examples.json";
import type { Operation, Parameter } from "./openapi-components";

/** A call recorded from the demo world (apps/server/src/openapi-examples.generate.ts; replayed by api-reference.test.ts). */
interface RecordedExample {
  summary: string;
  request: {
    method: string;
    path: string;
    pathParams?: Record<string, string>;
    query?: Record<string, string>;
    headers?: Record<string, string>;
    body?: unknown;
  };
  status: number;
  response: unknown;
}
export const RECORDED_EXAMPLES: Record<string, RecordedExample> = OPENAPI_EXAMPLES.operations;

function requestLine({ request }: RecordedExample): string {
  const path = request.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(request.pathParams?.[name] ?? `{${name}}`));
  const query = new URLSearchParams(request.query ?? {}).toString();
  const authorization = request.headers?.Authorization;
  const headers = [
    authorization ? `Authorization: ${authorization}` : "",
    request.method !== "GET" && request.body === undefined ? "Content-Type: application/json and the body {}" : "",
  ].filter(Boolean);
  return `${request.method} ${path}${query ? `?${query}` : ""}${headers.length > 0 ? ` with ${headers.join(", ")}` : ""}`;
}

/** A query or path value as its parameter's type: "2" is 2 for an integer. */
function typedValue(parameter: Parameter, value: string): unknown {
  const type = parameter.schema?.type;
  if (type === "integer" || type === "number") return Number(value);
  if (type === "boolean") return value === "true";
  return value;
}

/** The recorded call as examples on the operation's parameters, request body and success response. */
export function addExample(operation: Operation, example: RecordedExample): void {
  const description = `Recorded from the demo world: ${requestLine(example)}`;
  for (const parameter of operation.parameters ?? []) {
    const value =
      parameter.in === "path" ? example.request.pathParams?.[parameter.name] : parameter.in === "query" ? example.request.query?.[parameter.name] : undefined;
    if (value !== undefined) parameter.examples = { demo: { summary: example.summary, value: typedValue(parameter, value) } };
  }
  const body = operation.requestBody?.content?.["application/json"];
  if (body && example.request.body !== undefined) body.examples = { demo: { summary: example.summary, description, value: example.request.body } };
  // JSON, or the one media type of a streamed body (the partner export's NDJSON).
  const content = operation.responses?.[String(example.status)]?.content;
  const success = content?.["application/json"] ?? Object.values(content ?? {})[0];
  if (success) success.examples = { demo: { summary: example.summary, description, value: example.response } };
}

/**
 * Swagger UI's "Try it out" fills each parameter from its first `examples` entry, else from the
 * parameter's or its schema's `example` (else its default). A schema's example of an optional
 * parameter (a Berlin point, open now) sent along with the recorded call narrows it to nothing on
 * the demo world, so such an example moves to the schema's `examples` list: still shown with the
 * schema, never pre-filled. Required parameters and the recorded call's own keep theirs.
 */
export function unfilledOptionalExamples(operation: Operation): void {
  const names = new Set((operation.parameters ?? []).map((parameter) => parameter.name));
  for (const parameter of operation.parameters ?? []) {
    if (parameter.required || parameter.examples) continue;
    const schema = parameter.schema;
    if (!schema) continue;
    if (schema.example !== undefined) {
      schema.examples = [schema.example];
      delete schema.example;
    }
    // Pre-filled alone, a default that holds only beside another parameter is refused (a radius needs its point).
    const partner = DEFAULT_ONLY_BESIDE[parameter.name];
    if (partner && names.has(partner) && schema.default !== undefined) {
      schema.description = `${schema.description ? `${schema.description}; ` : ""}default ${JSON.stringify(schema.default)} when ${partner} is given`;
      delete schema.default;
    }
  }
}

/** Parameters whose default applies only when another is given: the API refuses them sent alone. */
const DEFAULT_ONLY_BESIDE: Record<string, string> = { radiusKm: "near" };
