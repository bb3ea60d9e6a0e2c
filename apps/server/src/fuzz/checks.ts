import { type TrpcError } from "../testing";
import { type Door, type FuzzCase } from "./model";
import { type Outcome } from "./send";

/** Judging the answers: the problems an answer has for its door, and a summary of the failures by class. */

export interface Failure {
  door: Door;
  method: string;
  target: string;
  route: string;
  kind: string;
  status: number;
  problem: string;
  body: string;
}

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

/** Answers are arbitrary JSON: each check narrows what it reads. */
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

function restErrorProblem(body: unknown): string | null {
  if (!isObject(body)) return "REST error body is not an object";
  if (typeof body.error !== "string" || typeof body.code !== "string") return "REST error body lacks { error: string, code: string }";
  return null;
}

/** tRPC's error envelope (superjson) with our public body in data.public. */
function trpcEnvelopeProblem(item: unknown): string | null {
  const json = isObject(item) && isObject(item.error) ? item.error.json : undefined;
  if (!isObject(json)) return "tRPC error is not { error: { json } }";
  if (typeof json.message !== "string" || typeof json.code !== "number") return "tRPC error lacks json.message/json.code";
  const data = json.data;
  if (!isObject(data) || typeof data.httpStatus !== "number") return "tRPC error lacks json.data.httpStatus";
  if (!isObject(data.public) || typeof data.public.error !== "string" || typeof data.public.code !== "string")
    return "tRPC error lacks json.data.public { error, code }";
  return null;
}

function trpcProblem(status: number, body: unknown): string | null {
  if (Array.isArray(body)) {
    const items: unknown[] = body;
    if (items.length === 0) return "tRPC batch answer is an empty array";
    for (const item of items) {
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
  // trpcEnvelopeProblem found no problem: the body is the envelope.
  const httpStatus = (body as TrpcError).error.json.data.httpStatus;
  return httpStatus === status ? null : `tRPC envelope says httpStatus ${httpStatus}, response is ${status}`;
}

function mcpMessageProblem(message: unknown, fuzzCase: FuzzCase): string | null {
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

function mcpProblem(status: number, body: unknown, fuzzCase: FuzzCase): string | null {
  const messages: unknown[] = Array.isArray(body) ? body : [body];
  if (messages.length === 0) return "MCP answer is an empty array";
  for (const message of messages) {
    const problem = mcpMessageProblem(message, fuzzCase);
    if (problem) return problem;
  }
  if (status >= 400 && !messages.every((message) => isObject(message) && "error" in message)) return `JSON-RPC result with status ${status}`;
  return null;
}

export function problemsOf(fuzzCase: FuzzCase, outcome: Outcome, documentedStatuses: Map<string, Set<string>>): string[] {
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
  if (fuzzCase.mustNotEcho && text.includes(fuzzCase.mustNotEcho)) problems.push(`forged value ${fuzzCase.mustNotEcho} echoed`);
  if (text === "") {
    const emptyAllowed = fuzzCase.method === "HEAD" || status === 204 || (fuzzCase.notification === true && status === 202);
    if (!emptyAllowed) problems.push("empty body");
    return problems;
  }
  // A streamed NDJSON success (the partner export): every line JSON; its refusals are JSON like any other.
  if (status < 400 && /^application\/x-ndjson\b/i.test(outcome.contentType)) {
    for (const line of text.split("\n").filter(Boolean)) {
      try {
        JSON.parse(line);
      } catch {
        return [...problems, "an NDJSON line is not JSON"];
      }
    }
    return problems;
  }
  if (!/^application\/json\b/i.test(outcome.contentType)) problems.push(`content-type "${outcome.contentType}"`);
  let body: unknown;
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

export function summarise(failures: Failure[]): string {
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
