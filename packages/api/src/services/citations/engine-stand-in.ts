import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { CitationEngine } from "./engines";
import type { CitationSettings } from "./env";

/** What the stand-in does with one request: answer with the text, or fail the way an engine does. */
export type StandInReply = { answer: string; citations?: string[] } | { status: 429 | 500; retryAfterSeconds?: number } | { hang: true } | { malformed: true };

export interface EngineStandIn {
  /** The base URL for CITATION_ENGINES: compatible:<model>@<baseURL>. */
  baseURL: string;
  /** Replies to the next requests in order; once used up, every request gets `fallback`. */
  queue(...replies: StandInReply[]): void;
  fallback: StandInReply;
  /** When set, the reply to a question it returns one for (before the queue): an answer that suits the question asked. */
  respond?: (question: string) => StandInReply | undefined;
  /** How long each request waits before its reply (a slow engine); 0 by default. */
  delayMs: number;
  /** Requests being answered now, and the most there ever were at once. */
  inFlight: number;
  maxInFlight: number;
  /** The chat requests received: their model, question and Authorization header. */
  requests: { model: string; question: string; authorization: string | undefined }[];
  close(): Promise<void>;
}

/**
 * A loopback server speaking the OpenAI chat completions protocol (POST /chat/completions), the
 * one part of citation checks a test stands in for: the adapter, the queue and the ingestion run
 * as they do against a real engine.
 */
export async function startEngineStandIn(fallback: StandInReply = { answer: "I cannot name any." }): Promise<EngineStandIn> {
  const pending: StandInReply[] = [];
  const hanging = new Set<ServerResponse>();
  const standIn: EngineStandIn = {
    baseURL: "",
    fallback,
    delayMs: 0,
    inFlight: 0,
    maxInFlight: 0,
    requests: [],
    queue: (...replies) => pending.push(...replies),
    close: async () => {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = createServer(async (request: IncomingMessage, response: ServerResponse) => {
    let raw = "";
    for await (const chunk of request) raw += String(chunk);
    if (request.method !== "POST" || !request.url?.endsWith("/chat/completions")) {
      response.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: "not found" } }));
      return;
    }
    const body = JSON.parse(raw) as { model: string; messages: { role: string; content: string | { text?: string }[] }[] };
    const last = body.messages.at(-1)?.content;
    const question = typeof last === "string" ? last : (last ?? []).map((part) => part.text ?? "").join("");
    standIn.requests.push({ model: body.model, question, authorization: request.headers.authorization });
    const reply = standIn.respond?.(question) ?? pending.shift() ?? standIn.fallback;
    standIn.inFlight += 1;
    standIn.maxInFlight = Math.max(standIn.maxInFlight, standIn.inFlight);
    response.once("close", () => (standIn.inFlight -= 1));
    if (standIn.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, standIn.delayMs));
    if ("hang" in reply) {
      hanging.add(response);
      return;
    }
    if ("malformed" in reply) {
      response.writeHead(200, { "content-type": "application/json" }).end('{"id": "chatcmpl-1", "choices": [');
      return;
    }
    if ("status" in reply) {
      const headers: Record<string, string> = { "content-type": "application/json" };
      if (reply.retryAfterSeconds !== undefined) headers["retry-after"] = String(reply.retryAfterSeconds);
      response
        .writeHead(reply.status, headers)
        .end(JSON.stringify({ error: { message: reply.status === 429 ? "Rate limit reached" : "Internal error", type: "server_error" } }));
      return;
    }
    response.writeHead(200, { "content-type": "application/json" }).end(
      JSON.stringify({
        id: `chatcmpl-${standIn.requests.length}`,
        object: "chat.completion",
        created: Math.floor(Date.now() / 1000),
        model: body.model,
        choices: [{ index: 0, message: { role: "assistant", content: reply.answer }, finish_reason: "stop" }],
        usage: { prompt_tokens: 10, completion_tokens: 20, total_tokens: 30 },
        // Perplexity's way of giving the sources an answer drew on: a top-level array of URLs.
        ...(reply.citations ? { citations: reply.citations } : {}),
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  standIn.baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return standIn;
}

/** The settings a test runs checks with: the engines given, no wait between attempts, the stand-in's key. */
export function standInSettings(engines: CitationEngine[], overrides: Partial<CitationSettings> = {}): CitationSettings {
  return {
    engines,
    checksPerDay: 200,
    timeoutMs: 2_000,
    concurrency: 2,
    retryDelaysMs: [0, 0, 0],
    apiKeys: { openai: undefined, anthropic: undefined, google: undefined, perplexity: undefined, compatible: "stand-in-key" },
    ...overrides,
  };
}
