import { TRPCClientError } from "@trpc/client";
import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@directory/api";
import { codeOfStatus, DirectoryError, type DirectoryErrorBody } from "./errors.js";

/** One location of the partner feed: schema.org JSON-LD whose identifier is the business id. */
export type PartnerFeedLocation = inferRouterOutputs<AppRouter>["feed"]["getPartnerFeed"]["locations"][number];

export interface PartnerExportOptions {
  /** Origin of a running directory service, e.g. "http://localhost:3000". */
  baseUrl: string;
  /** A partner API key (bdk_partner_...). */
  apiKey: string;
  fetch?: typeof fetch | undefined;
  /** Aborting it ends the export and frees the key's export slot on the service. */
  signal?: AbortSignal | undefined;
}

/** The export's locations as an async iterable; once it is read to the end, the position to follow the changes from. */
export interface PartnerExport extends AsyncIterable<PartnerFeedLocation> {
  /** changes?after=<this> continues with nothing lost or doubled; null until the last line has been read. */
  readonly after: number | null;
  /** Locations in the export; null until the last line has been read. */
  readonly count: number | null;
}

async function refusal(response: Response): Promise<DirectoryError> {
  const text = await response.text();
  let body: DirectoryErrorBody | null = null;
  try {
    const parsed = JSON.parse(text) as Partial<DirectoryErrorBody> | null;
    if (typeof parsed?.error === "string" && typeof parsed.code === "string") body = parsed as DirectoryErrorBody;
  } catch {
    // Not the service's JSON: a proxy's page, read by its status below.
  }
  body ??= {
    error: `HTTP ${response.status} from something in front of the directory service (no answer of the service's)`,
    code: codeOfStatus(response.status) as DirectoryErrorBody["code"],
  };
  const shape = { message: body.error, code: -32000, data: { httpStatus: response.status, public: body } };
  return new DirectoryError(new TRPCClientError<AppRouter>(body.error, { result: { error: shape }, meta: { response } } as never));
}

/**
 * GET /api/v2/partner-feed/export as an async iterable of locations, read line by line as the
 * service streams them (memory stays flat). Refusals throw DirectoryError (401, 403, 429 with
 * retryAfterSeconds when the key already has an export running). Breaking out of the loop cancels
 * the download. A stream that ends without its last line throws: the export is incomplete.
 *
 *   const exported = exportPartnerFeed({ baseUrl, apiKey });
 *   for await (const location of exported) copy.set(location.identifier, location);
 *   let after = exported.after; // then: client.feed.getPartnerFeedChanges.query({ after })
 */
export function exportPartnerFeed(options: PartnerExportOptions): PartnerExport {
  const state: { after: number | null; count: number | null } = { after: null, count: null };
  const doFetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  async function* locations(): AsyncGenerator<PartnerFeedLocation> {
    const controller = new AbortController();
    options.signal?.addEventListener("abort", () => controller.abort(options.signal?.reason));
    const response = await doFetch(`${options.baseUrl.replace(/\/+$/, "")}/api/v2/partner-feed/export`, {
      headers: { authorization: `Bearer ${options.apiKey}`, accept: "application/x-ndjson" },
      signal: controller.signal,
    });
    if (!response.ok || !response.body) throw await refusal(response);
    const decoder = new TextDecoder();
    let pending = "";
    let last: string | null = null;
    try {
      for await (const bytes of response.body as unknown as AsyncIterable<Uint8Array>) {
        pending += decoder.decode(bytes, { stream: true });
        let newline: number;
        while ((newline = pending.indexOf("\n")) >= 0) {
          const line = pending.slice(0, newline);
          pending = pending.slice(newline + 1);
          // Each line is held back one step: the last one is the position, not a location.
          if (last !== null) yield JSON.parse(last) as PartnerFeedLocation;
          last = line;
        }
      }
    } finally {
      controller.abort();
    }
    const end = last === null ? null : (JSON.parse(last) as { after?: unknown; count?: unknown });
    if (!end || typeof end.after !== "number" || typeof end.count !== "number" || pending.trim() !== "") {
      throw new Error("The partner export ended without its last line: it is incomplete; take it again");
    }
    state.after = end.after;
    state.count = end.count;
  }
  return {
    [Symbol.asyncIterator]: locations,
    get after() {
      return state.after;
    },
    get count() {
      return state.count;
    },
  };
}
