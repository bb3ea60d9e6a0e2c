import { createAnthropic } from "@ai-sdk/anthropic";
import { createGoogleGenerativeAI } from "@ai-sdk/google";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { createPerplexity } from "@ai-sdk/perplexity";
import { APICallError, generateText, type LanguageModel } from "ai";
import { cleanCitedSources, sourcesInResponseBody } from "./cited-sources";

export const CITATION_PROVIDERS = ["openai", "anthropic", "google", "perplexity", "compatible"] as const;
export type CitationProvider = (typeof CITATION_PROVIDERS)[number];

/** One entry of CITATION_ENGINES: `provider:model`, or `compatible:model@baseURL`. */
export interface CitationEngine {
  /** The provider's name, as checks and documents record it. */
  name: CitationProvider;
  provider: CitationProvider;
  model: string;
  /** The compatible engine's address; null for the others, which their AI SDK provider package reaches at its own. */
  baseURL: string | null;
}

/** Parses CITATION_ENGINES ("openai:gpt-4o-mini,compatible:llama3@http://localhost:11434/v1"); empty: no engine. */
export function parseCitationEngines(raw: string): CitationEngine[] {
  const engines: CitationEngine[] = [];
  for (const item of raw
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean)) {
    const colon = item.indexOf(":");
    const provider = item.slice(0, colon) as CitationProvider;
    if (colon <= 0 || !CITATION_PROVIDERS.includes(provider)) {
      throw new Error(`"${item}": each engine is <provider>:<model> with provider one of ${CITATION_PROVIDERS.join(", ")}`);
    }
    let model = item.slice(colon + 1);
    let baseURL: string | null = null;
    if (provider === "compatible") {
      const at = model.indexOf("@");
      if (at <= 0) throw new Error(`"${item}": a compatible engine is compatible:<model>@<base URL>`);
      baseURL = model.slice(at + 1).replace(/\/+$/, "");
      model = model.slice(0, at);
      if (!/^https?:\/\/[^/]/.test(baseURL)) throw new Error(`"${item}": the base URL must be http(s)://...`);
    }
    if (model === "") throw new Error(`"${item}": the model is missing`);
    if (engines.some((other) => other.name === provider && other.model === model)) throw new Error(`"${item}" is listed twice`);
    engines.push({ name: provider, provider, model, baseURL });
  }
  return engines;
}

export interface EngineAnswer {
  text: string;
  /** The model the engine says answered (it may name a dated version of the one asked for). */
  model: string;
  /** The URLs the engine said it drew on, cleaned and capped (cited-sources.ts); empty when it gave none. */
  sources: string[];
}

/** Where the adapter's metadata extractor leaves the sources it found in the response body. */
const SOURCES_METADATA_KEY = "citedSources";

/**
 * The chat completions protocol has no field for sources; a compatible engine (a gateway, a
 * self-hosted model) that gives them adds them as the providers do (Perplexity's `citations`,
 * OpenAI's url_citation annotations). The adapter hands the parsed body to this extractor, whose
 * result comes back in the call's providerMetadata.
 */
const citedSourcesExtractor = {
  extractMetadata: async ({ parsedBody }: { parsedBody: unknown }) => ({
    [SOURCES_METADATA_KEY]: { urls: cleanCitedSources(sourcesInResponseBody(parsedBody)) },
  }),
  createStreamExtractor: () => ({ processChunk: () => {}, buildMetadata: () => undefined }),
};

/** Why a call failed, as recorded with the check; `retryAfterMs` when the engine said when to come back. */
export class EngineCallError extends Error {
  override name = "EngineCallError";
  constructor(
    message: string,
    readonly retryAfterMs: number | null,
  ) {
    super(message);
  }
}

function retryAfterOf(headers: Record<string, string> | undefined): number | null {
  const raw = headers?.["retry-after"];
  if (!raw) return null;
  const seconds = Number(raw);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(raw);
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now());
}

function describeFailure(error: unknown, timeoutMs: number): EngineCallError {
  if (APICallError.isInstance(error)) {
    const status = error.statusCode === undefined ? "no status" : `HTTP ${error.statusCode}`;
    return new EngineCallError(`${status}: ${error.message}`.slice(0, 500), retryAfterOf(error.responseHeaders));
  }
  if (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError")) {
    return new EngineCallError(`timeout: no answer within ${timeoutMs} ms`, null);
  }
  const name = error instanceof Error ? error.name : "Error";
  const message = error instanceof Error ? error.message : String(error);
  return new EngineCallError(`${name}: ${message}`.slice(0, 500), null);
}

/**
 * The engine's model through its AI SDK provider package: each provider's own API, so the sources
 * it returns (Perplexity's citations, Google's grounding, OpenAI's and Anthropic's web results)
 * arrive as the SDK's sources. The compatible engine speaks the OpenAI chat completions protocol.
 */
export function languageModelOf(engine: CitationEngine, apiKey: string | undefined): LanguageModel {
  switch (engine.provider) {
    case "openai":
      return createOpenAI({ apiKey })(engine.model);
    case "anthropic":
      return createAnthropic({ apiKey })(engine.model);
    case "google":
      return createGoogleGenerativeAI({ apiKey })(engine.model);
    case "perplexity":
      return createPerplexity({ apiKey })(engine.model);
    case "compatible":
      return createOpenAICompatible({ name: engine.name, baseURL: engine.baseURL!, apiKey, metadataExtractor: citedSourcesExtractor }).chatModel(engine.model);
  }
}

/** Asks the engine one question, once (the check queue owns retries), within the timeout. */
export async function askEngine(engine: CitationEngine, question: string, options: { apiKey: string | undefined; timeoutMs: number }): Promise<EngineAnswer> {
  try {
    const result = await generateText({
      model: languageModelOf(engine, options.apiKey),
      prompt: question,
      maxRetries: 0,
      abortSignal: options.timeoutMs > 0 ? AbortSignal.timeout(options.timeoutMs) : undefined,
    });
    if (result.text.trim() === "") throw new EngineCallError("empty answer", null);
    const fromBody = result.providerMetadata?.[SOURCES_METADATA_KEY]?.urls;
    const fromSdk = result.sources.map((source) => (source.sourceType === "url" ? source.url : undefined));
    const sources = cleanCitedSources([...fromSdk, ...(Array.isArray(fromBody) ? fromBody : [])]);
    return { text: result.text, model: result.response.modelId || engine.model, sources };
  } catch (error) {
    throw error instanceof EngineCallError ? error : describeFailure(error, options.timeoutMs);
  }
}
