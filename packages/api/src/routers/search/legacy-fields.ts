import { noteLegacyScoreRequest } from "../../services/search/legacy-scores";
import type { Context } from "../../context";

/**
 * Middleware for the listing routes that accept the legacy `fields` parameter: a request for the
 * removed score fields is counted (services/search/legacy-scores.ts), and the fields stay omitted.
 */
export function noteLegacyFields(route: string) {
  return async <T>(opts: { ctx: Context; input: { fields?: string }; next: () => Promise<T> }): Promise<T> => {
    await noteLegacyScoreRequest(opts.ctx.db, { log: opts.ctx.log, route, fieldsParam: opts.input.fields, apiKeyId: opts.ctx.apiKey?.id ?? null });
    return opts.next();
  };
}
