import type { PublicErrorBody } from "@directory/api";
import { TooDeepError } from "./json-depth";

/**
 * What was wrong with a request body the app's parsers refused, decided once for every door: each
 * door only wraps the answer in its own envelope (REST `{error, code}`, tRPC's envelope, a GraphQL
 * error, a JSON-RPC error).
 */
export type BodyRefusalKind = "too-deep" | "too-large" | "unsupported-media-type" | "malformed-json" | "bad-request";

export interface BodyRefusal {
  kind: BodyRefusalKind;
  status: number;
  /** The public body of the refusal (REST sends it as it is, tRPC inside its envelope). */
  body: PublicErrorBody;
  /** The parser's own words, which the MCP door passes on. */
  detail: string;
}

/** body-parser's errors carry an HTTP status and a type such as "entity.parse.failed". */
interface ParserError {
  status?: number;
  type?: string;
  message?: string;
}

/** The refusal a body-parser (or depth check) error stands for; null for anything else, which is a server fault. */
export function classifyBodyError(error: unknown): BodyRefusal | null {
  if (error instanceof TooDeepError) return { kind: "too-deep", status: 400, body: { error: error.message, code: "INVALID_INPUT" }, detail: error.message };
  const { status, type, message } = (error ?? {}) as ParserError;
  const detail = message ?? "bad request body";
  if (type === "entity.too.large" || status === 413) {
    return { kind: "too-large", status: 413, body: { error: "Request body too large", code: "PAYLOAD_TOO_LARGE" }, detail };
  }
  if (status === 415) {
    const body = { error: "The request body must be UTF-8 JSON (Content-Type: application/json; charset=utf-8)", code: "UNSUPPORTED_MEDIA_TYPE" };
    return { kind: "unsupported-media-type", status: 415, body, detail };
  }
  if (type === "entity.parse.failed")
    return { kind: "malformed-json", status: 400, body: { error: "Request body is not valid JSON", code: "INVALID_INPUT" }, detail };
  if (status && status >= 400 && status < 500) return { kind: "bad-request", status, body: { error: "Bad request", code: "INVALID_INPUT" }, detail };
  return null;
}
