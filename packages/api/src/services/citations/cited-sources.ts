import { cleanOwnerText } from "../shared/owner-text";

/** At most this many sources are kept with an answer, in the engine's order. */
export const MAX_CITED_SOURCES = 20;
/** A longer URL is dropped, not cut: half a URL points somewhere else. */
export const MAX_CITED_SOURCE_LENGTH = 2_000;

/**
 * The sources an engine cited, as stored with its answer: http(s) URLs only, without credentials
 * or hidden characters, each at most MAX_CITED_SOURCE_LENGTH characters, duplicates removed, the
 * first MAX_CITED_SOURCES kept. Anything else an engine sends (other schemes, non-strings, text
 * that is no URL) is left out, so the column holds only links a page can show as they are.
 */
export function cleanCitedSources(raw: readonly unknown[]): string[] {
  const kept: string[] = [];
  for (const item of raw) {
    if (kept.length >= MAX_CITED_SOURCES) break;
    if (typeof item !== "string") continue;
    const text = cleanOwnerText(item.trim(), MAX_CITED_SOURCE_LENGTH + 1);
    if (text.length > MAX_CITED_SOURCE_LENGTH || !/^https?:\/\//i.test(text)) continue;
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      continue;
    }
    if ((url.protocol !== "http:" && url.protocol !== "https:") || url.hostname === "") continue;
    url.username = "";
    url.password = "";
    const href = url.href;
    if (href.length <= MAX_CITED_SOURCE_LENGTH && !kept.includes(href)) kept.push(href);
  }
  return kept;
}

/**
 * The URLs an OpenAI-compatible response names as its sources, wherever the provider puts them:
 * Perplexity's top-level `citations` (URLs) and `search_results` ({ url }), and the chat message's
 * `annotations` of type url_citation (OpenAI's search models). Unvalidated; cleanCitedSources keeps
 * what may be stored.
 */
export function sourcesInResponseBody(body: unknown): unknown[] {
  if (typeof body !== "object" || body === null) return [];
  const record = body as Record<string, unknown>;
  const found: unknown[] = [];
  if (Array.isArray(record.citations)) found.push(...record.citations);
  if (Array.isArray(record.search_results)) found.push(...record.search_results.map((result: unknown) => urlField(result)));
  const choices = Array.isArray(record.choices) ? (record.choices as unknown[]) : [];
  const message = (choices[0] as { message?: { annotations?: unknown } } | undefined)?.message;
  if (Array.isArray(message?.annotations)) {
    for (const annotation of message.annotations as unknown[]) {
      const citation = (annotation as { type?: unknown; url_citation?: unknown } | null)?.url_citation;
      if (citation !== undefined) found.push(urlField(citation));
    }
  }
  return found;
}

function urlField(value: unknown): unknown {
  return typeof value === "object" && value !== null ? (value as { url?: unknown }).url : undefined;
}
