import { describe, expect, it } from "vitest";
import { languageModelOf, parseCitationEngines } from "./engines";

describe("CITATION_ENGINES", () => {
  it("reaches each provider through its own AI SDK package, and the compatible engine at its address", () => {
    const engines = parseCitationEngines(
      "openai:gpt-4o-mini, anthropic:claude-sonnet-4-5, google:gemini-2.5-flash, perplexity:sonar, compatible:llama3@http://127.0.0.1:11434/v1/",
    );
    const models = engines.map((engine) => languageModelOf(engine, "test-key"));
    const described = models.map((model) => (typeof model === "string" ? model : { provider: model.provider, modelId: model.modelId }));
    expect(described).toEqual([
      { provider: expect.stringMatching(/^openai\./), modelId: "gpt-4o-mini" },
      { provider: expect.stringMatching(/^anthropic\./), modelId: "claude-sonnet-4-5" },
      { provider: expect.stringMatching(/^google\./), modelId: "gemini-2.5-flash" },
      { provider: expect.stringMatching(/^perplexity/), modelId: "sonar" },
      { provider: expect.stringMatching(/^compatible/), modelId: "llama3" },
    ]);
    expect(engines.map((engine) => engine.baseURL)).toEqual([null, null, null, null, "http://127.0.0.1:11434/v1"]);
  });

  it("refuses an unknown provider, a compatible engine without its address and a repeated engine, naming the entry", () => {
    expect(() => parseCitationEngines("mistral:large")).toThrow(/"mistral:large": each engine is <provider>:<model>/);
    expect(() => parseCitationEngines("compatible:llama3")).toThrow(/"compatible:llama3": a compatible engine is compatible:<model>@<base URL>/);
    expect(() => parseCitationEngines("openai:a,openai:a")).toThrow(/"openai:a" is listed twice/);
  });
});
