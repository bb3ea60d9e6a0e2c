import { nonNegativeInteger, optionalText } from "@directory/db";
import { z } from "zod";
import { parseCitationEngines, type CitationEngine } from "./engines";

/** Waits between a failed engine call and the next attempt; one more attempt than waits, then the check fails for good. */
export const DEFAULT_CITATION_RETRY_DELAYS_MS = [60_000, 600_000, 3_600_000] as const;

const engineList = z
  .string()
  .optional()
  .transform((raw, context) => {
    try {
      return parseCitationEngines(raw ?? "");
    } catch (error) {
      context.addIssue({ code: "custom", message: error instanceof Error ? error.message : String(error) });
      return z.NEVER;
    }
  });

/**
 * The variables of citation checks, read by the server, the worker and the admin CLI. Each
 * provider's key is in the variable its own SDK reads; the `compatible` engine (any server speaking
 * the OpenAI chat completions protocol) has its own, so a self-hosted or test endpoint is never sent
 * the OpenAI key.
 */
export const citationVariables = {
  CITATION_ENGINES: engineList,
  CITATION_CHECKS_PER_DAY: nonNegativeInteger(200),
  CITATION_TIMEOUT_MS: nonNegativeInteger(60_000, " (milliseconds)"),
  CITATION_CONCURRENCY: nonNegativeInteger(2),
  OPENAI_API_KEY: optionalText(),
  ANTHROPIC_API_KEY: optionalText(),
  GOOGLE_GENERATIVE_AI_API_KEY: optionalText(),
  PERPLEXITY_API_KEY: optionalText(),
  CITATION_COMPATIBLE_API_KEY: optionalText(),
};

type CitationVariables = { [K in keyof typeof citationVariables]: z.output<(typeof citationVariables)[K]> };

export interface CitationSettings {
  engines: CitationEngine[];
  checksPerDay: number;
  timeoutMs: number;
  /** Engine calls in flight at once, per engine, across every worker (claimCheck counts them). */
  concurrency: number;
  retryDelaysMs: readonly number[];
  apiKeys: Record<CitationEngine["provider"], string | undefined>;
}

export function citationSettingsOf(env: CitationVariables): CitationSettings {
  return {
    engines: env.CITATION_ENGINES,
    checksPerDay: env.CITATION_CHECKS_PER_DAY,
    timeoutMs: env.CITATION_TIMEOUT_MS,
    concurrency: Math.max(1, env.CITATION_CONCURRENCY),
    retryDelaysMs: DEFAULT_CITATION_RETRY_DELAYS_MS,
    apiKeys: {
      openai: env.OPENAI_API_KEY,
      anthropic: env.ANTHROPIC_API_KEY,
      google: env.GOOGLE_GENERATIVE_AI_API_KEY,
      perplexity: env.PERPLEXITY_API_KEY,
      compatible: env.CITATION_COMPATIBLE_API_KEY,
    },
  };
}
