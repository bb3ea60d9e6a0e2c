import type { OpenAPIObject } from "trpc-to-openapi";
import type { Example, Operation, Parameter, Response } from "./openapi-components";
import { restRouter } from "./root";
import { operationCatalogue, type RouterProcedures } from "./services/agents/agent-operations";

/**
 * The REST API in pieces an agent can afford: one line per operation for llms.txt, and one short
 * Markdown page per operation (parameters, body, responses, one recorded example) at
 * /api/docs/operations/{operationId}.md, all read from the OpenAPI document itself. The whole
 * document costs about 90,000 tokens; one page costs well under 1,500 (the test counts them).
 */

export const OPERATION_PAGES_PATH = "/api/docs/operations";

/** Statuses every operation answers alike (their rule is said once, in llms.txt): named on a page, not described. */
const SHARED_STATUSES = new Set(["413", "415", "429", "431", "503"]);
/** A longer text is cut on a page: an example's strings and the descriptions of fields. */
const TEXT_MAX = 100;
/** Fields of a response body named on a page, one level deep. */
const FIELDS_MAX = 14;

interface DocumentedOperation {
  operationId: string;
  method: string;
  path: string;
  summary: string;
  description: string;
  operation: Operation & {
    summary?: string;
    description?: string;
    requestBody?: { required?: boolean; content?: Record<string, { schema?: unknown; examples?: Record<string, Example> }> };
  };
}

/** Who may call each REST operation, from its procedure's access class (services/agents/agent-operations.ts). */
const NEEDS_LABEL = {
  nothing: "none; a key raises the limits",
  any_key: "any API key",
  partner: "partner key",
  business: "business key",
  admin: "admin key",
} as const;

function authOf(): Map<string, string> {
  const procedures = restRouter._def.procedures as unknown as RouterProcedures;
  return new Map(operationCatalogue(procedures).map(({ operation, needs }) => [operation, NEEDS_LABEL[needs]]));
}

/** Every operation has a procedure with an access class (openapi.ts refuses a document without): a missing one is a bug. */
function authLabel(auth: Map<string, string>, operationId: string): string {
  const label = auth.get(operationId);
  if (!label) throw new Error(`OpenAPI: operation ${operationId} has no REST procedure`);
  return label;
}

/** Every operation of the document, in its order (the procedures' order). */
export function documentedOperations(document: OpenAPIObject): DocumentedOperation[] {
  const operations: DocumentedOperation[] = [];
  for (const [path, methods] of Object.entries(document.paths ?? {})) {
    for (const [method, operation] of Object.entries(methods as Record<string, DocumentedOperation["operation"]>)) {
      const { operationId } = operation;
      if (!operationId) throw new Error(`OpenAPI: ${method.toUpperCase()} ${path} has no operationId`);
      operations.push({
        operationId,
        method: method.toUpperCase(),
        path,
        summary: operation.summary ?? "",
        description: operation.description ?? "",
        operation,
      });
    }
  }
  return operations;
}

/** The llms.txt lines: method, path, what it does and the key it needs, with the link to the operation's page. */
export function operationLines(document: OpenAPIObject, baseUrl: string): string[] {
  const auth = authOf();
  return documentedOperations(document).map(
    ({ operationId, method, path, summary }) =>
      `- ${method} ${path}: ${summary}. Auth: ${authLabel(auth, operationId)}. [${operationId}](${baseUrl}${OPERATION_PAGES_PATH}/${operationId}.md)`,
  );
}

const cut = (text: string, max = TEXT_MAX) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
const oneLine = (text: string) => text.replace(/\s+/g, " ").trim();

/** A schema's type in a few characters: string, integer 1..10, "a" | "b", array of object, object|null. */
function typeOf(schema: unknown): string {
  if (!schema || typeof schema !== "object") return "any";
  const s = schema as Record<string, unknown>;
  if (Array.isArray(s.enum)) return s.enum.map((value) => JSON.stringify(value)).join(" | ");
  if (s.const !== undefined) return JSON.stringify(s.const);
  const variants = (s.anyOf ?? s.oneOf) as unknown[] | undefined;
  if (variants) return variants.map(typeOf).join(" or ");
  if (s.type === "array") return `array of ${typeOf(s.items)}`;
  if (Array.isArray(s.type)) return s.type.join(" or ");
  const bound = (value: unknown) => (typeof value === "number" ? String(value) : "");
  const range = s.minimum !== undefined || s.maximum !== undefined ? ` ${bound(s.minimum)}..${bound(s.maximum)}` : "";
  return `${typeof s.type === "string" ? s.type : "object"}${range}`;
}

/** One field or parameter: its label (already in code spans), type, whether required, default, description, an object's own fields. */
function describedField(label: string, schema: unknown, required: boolean): string {
  const s = (schema ?? {}) as { description?: string; default?: unknown; properties?: Record<string, unknown>; required?: string[] };
  const notes = [typeOf(schema), required ? "required" : "optional", s.default !== undefined ? `default ${JSON.stringify(s.default)}` : ""].filter(Boolean);
  const inner = Object.keys(s.properties ?? {}).map((name) => `\`${name}\`${s.required?.includes(name) ? " (required)" : ""}`);
  const fields = inner.length > 0 ? `; fields ${inner.join(", ")}` : "";
  return `- ${label} (${notes.join(", ")})${s.description ? `: ${cut(oneLine(s.description))}` : ""}${fields}`;
}

function parameterLines(parameters: Parameter[]): string[] {
  return parameters.map((parameter) => describedField(`\`${parameter.name}\` in ${parameter.in}`, parameter.schema, parameter.required === true));
}

/** A JSON body's fields, one level deep (objects within are named, not unfolded). */
function bodyFieldLines(schema: unknown): string[] {
  const s = (schema ?? {}) as { properties?: Record<string, unknown>; required?: string[] };
  const required = new Set(s.required ?? []);
  return Object.entries(s.properties ?? {}).map(([name, field]) => describedField(`\`${name}\``, field, required.has(name)));
}

function responseLines(responses: Record<string, Response>): string[] {
  const lines: string[] = [];
  const shared: string[] = [];
  for (const [status, response] of Object.entries(responses)) {
    if (SHARED_STATUSES.has(status)) {
      shared.push(status);
      continue;
    }
    const schema = Object.values(response.content ?? {})[0]?.schema as { properties?: Record<string, unknown> } | undefined;
    const fields = status.startsWith("2") ? Object.keys(schema?.properties ?? {}) : [];
    const named =
      fields.length > 0
        ? ` Fields: ${fields
            .slice(0, FIELDS_MAX)
            .map((field) => `\`${field}\``)
            .join(", ")}${fields.length > FIELDS_MAX ? ", …" : ""}.`
        : "";
    const description = status.startsWith("2") ? oneLine(response.description) : cut(oneLine(response.description), ERROR_TEXT_MAX);
    lines.push(`- ${status}: ${description.replace(/\.?$/, ".")}${named}`);
  }
  if (shared.length > 0)
    lines.push(`- ${shared.join(", ")}: as for every operation (body too large, not JSON, rate limit, headers too large, unavailable); see /llms.txt`);
  return lines;
}

/**
 * A page's length in characters, the example taking what the rest leaves (at least EXAMPLE_MIN):
 * at 3.4 characters a token or more (o200k on these pages), about 1,400 tokens.
 */
const PAGE_CHARS = 4700;
const EXAMPLE_MIN = 900;
/** An error status's description is cut here: the parameters above already give each bound. */
const ERROR_TEXT_MAX = 240;

/** An example shortened for reading: the first item of each list, strings cut at `max`. */
function abridged(value: unknown, max = TEXT_MAX): unknown {
  if (typeof value === "string") return cut(value, max);
  if (Array.isArray(value)) return value.slice(0, 1).map((item) => abridged(item, max));
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([key, field]) => [key, abridged(field, max)]));
  return value;
}

const isContainer = (value: unknown): value is object => value !== null && typeof value === "object";

function depthOf(value: unknown): number {
  if (!isContainer(value)) return 0;
  return 1 + Math.max(0, ...Object.values(value).map(depthOf));
}

/** The value with every list or object nested `depth` levels down written as "…". */
function elidedBelow(value: unknown, depth: number): unknown {
  if (!isContainer(value)) return value;
  if (depth === 0) return "…";
  if (Array.isArray(value)) return value.map((item) => elidedBelow(item, depth - 1));
  return Object.fromEntries(Object.entries(value).map(([key, field]) => [key, elidedBelow(field, depth - 1)]));
}

/** The largest object held in an object's field, with that field, or null when there is none. */
function largestNestedObject(value: unknown): { holder: Record<string, unknown>; key: string; size: number } | null {
  let largest: { holder: Record<string, unknown>; key: string; size: number } | null = null;
  const visit = (node: unknown) => {
    if (!isContainer(node)) return;
    for (const [key, field] of Object.entries(node)) {
      if (!Array.isArray(node) && isContainer(field) && !Array.isArray(field)) {
        const size = JSON.stringify(field).length;
        if (!largest || size > largest.size) largest = { holder: node as Record<string, unknown>, key, size };
      }
      visit(field);
    }
  };
  visit(value);
  return largest;
}

/** Strings cut shorter when an example is still too long: an id or a URL stays recognisable. */
const SHORT_TEXT_MAX = 40;

/** Each object with its first `keep` fields, the rest counted in a last "…" field. */
function firstFields(value: unknown, keep: number): unknown {
  if (!isContainer(value)) return value;
  if (Array.isArray(value)) return value.map((item) => firstFields(item, keep));
  const entries = Object.entries(value);
  const kept = entries.slice(0, keep).map(([key, field]) => [key, firstFields(field, keep)]);
  return Object.fromEntries(entries.length > keep ? [...kept, ["…", `${entries.length - keep} more fields`]] : kept);
}

/**
 * Too long still, the largest object within an object goes first (a JSON-LD copy, a nested
 * record), so lists keep their first item; then strings are cut shorter, then objects keep their
 * first fields; last, the deepest structure goes, keeping the top-level shape.
 */
function fitted(value: unknown, chars: number): unknown {
  let shown = abridged(value);
  const tooLong = () => JSON.stringify(shown).length > chars;
  for (let largest = largestNestedObject(shown); tooLong() && largest; largest = largestNestedObject(shown)) largest.holder[largest.key] = "…";
  if (tooLong()) shown = abridged(shown, SHORT_TEXT_MAX);
  for (const keep of [12, 8, 5]) if (tooLong()) shown = firstFields(shown, keep);
  for (let depth = depthOf(shown) - 1; depth > 1 && tooLong(); depth--) shown = elidedBelow(shown, depth);
  return shown;
}

/** The recorded request as a reader sends it: the path with its parameters filled, the query, the body. */
function exampleRequest({ method, path, operation }: DocumentedOperation): { line: string; body: unknown } {
  // A parameter's recorded value, as the URL carries it.
  const demo = (parameter: Parameter) => {
    const value = parameter.examples?.demo?.value;
    if (value === undefined || value === null) return undefined;
    return typeof value === "string" ? value : JSON.stringify(value);
  };
  let target = path;
  const query = new URLSearchParams();
  for (const parameter of operation.parameters ?? []) {
    const value = demo(parameter);
    if (value === undefined) continue;
    if (parameter.in === "path") target = target.replace(`{${parameter.name}}`, encodeURIComponent(value));
    else if (parameter.in === "query") query.set(parameter.name, value);
  }
  const search = query.toString();
  const body = operation.requestBody?.content?.["application/json"]?.examples?.demo?.value;
  return { line: `${method} ${target}${search ? `?${search}` : ""}`, body };
}

function recordedResponse(operation: Operation): { status: string; mediaType: string; example: Example } | null {
  for (const [status, response] of Object.entries(operation.responses ?? {})) {
    const [mediaType, content] = Object.entries(response.content ?? {})[0] ?? [];
    const example = content?.examples?.demo;
    if (mediaType && example) return { status, mediaType, example };
  }
  return null;
}

/** A streamed body's example (the partner export's NDJSON) is text: its first two lines, cut to share the room. */
const textBlock = (text: string, chars: number) => [
  "```text",
  ...text
    .split("\n")
    .filter(Boolean)
    .slice(0, 2)
    .map((line) => cut(line, chars / 2)),
  "```",
];

/** Compact JSON: indentation would cost a third of a page's tokens. */
const jsonBlock = (value: unknown) => ["```json", JSON.stringify(value), "```"];

/** One operation's page, or null when the document has no such operation. */
export function operationPage(document: OpenAPIObject, operationId: string): string | null {
  const documented = documentedOperations(document).find((candidate) => candidate.operationId === operationId);
  if (!documented) return null;
  const { method, path, summary, description, operation } = documented;
  const auth = authLabel(authOf(), operationId);
  const lines = [`# ${operationId}: ${summary}`, "", `\`${method} ${path}\`. Auth: ${auth}. Keys go in Authorization: Bearer <key>.`, ""];
  if (description && description !== summary) lines.push(oneLine(description), "");
  const parameters = operation.parameters ?? [];
  if (parameters.length > 0) lines.push("## Parameters", "", ...parameterLines(parameters), "");
  const body = operation.requestBody?.content?.["application/json"];
  if (body) lines.push(`## Body (application/json${operation.requestBody?.required ? ", required" : ""})`, "", ...bodyFieldLines(body.schema), "");
  lines.push("## Responses", "", ...responseLines(operation.responses ?? {}), "", "Errors are JSON `{ error, code }`.", "");
  const recorded = recordedResponse(operation);
  const request = exampleRequest(documented);
  lines.push("## Example", "", recorded ? `${recorded.example.summary}:` : "A call:", "", "```http", request.line, "```", "");
  const closing = `Full schemas: /api/openapi.json, operationId ${operationId}.`;
  const room = () => Math.max(EXAMPLE_MIN, PAGE_CHARS - lines.join("\n").length - closing.length - 200);
  if (request.body !== undefined) lines.push("Body:", "", ...jsonBlock(fitted(request.body, room() / 2)), "");
  const answer = recorded?.example.value;
  if (typeof answer === "string")
    lines.push(`Answer (${recorded!.status}, ${recorded!.mediaType}; its first lines, cut):`, "", ...textBlock(answer, room()), "");
  else if (recorded)
    lines.push(`Answer (${recorded.status}; first item of each list, long texts cut, "…" for parts left out):`, "", ...jsonBlock(fitted(answer, room())), "");
  lines.push(closing, "");
  return lines.join("\n");
}
