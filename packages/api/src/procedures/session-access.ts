import { DomainError, toTrpcError } from "../errors";
import type { Context } from "../context";
import { isCsrfTokenValid, resolveSession, type SignedInSession } from "../services/accounts/sessions";

/**
 * A state change from a browser must come from the service's own pages: a foreign Origin is refused
 * (a request without one, from a program, is judged by its CSRF token alone where one is needed).
 */
export function assertOwnOrigin(ctx: { requestOrigin: string | null; publicBaseUrl: string }): void {
  if (ctx.requestOrigin !== null && ctx.requestOrigin !== new URL(ctx.publicBaseUrl).origin) {
    throw toTrpcError(new DomainError("FORBIDDEN", "This request comes from another site: it is refused"));
  }
}

/**
 * The signed-in person behind the session cookie (401 without one). Mutations also need the
 * service's own Origin (when one is sent) and the session's CSRF token (a form's csrfToken field,
 * or the X-CSRF-Token header). Used by every builder that admits a session.
 */
export async function signedInSession(ctx: Context, type: "query" | "mutation" | "subscription"): Promise<SignedInSession> {
  const session = await resolveSession(ctx.db, { publicBaseUrl: ctx.publicBaseUrl, cookieHeader: ctx.cookieHeader });
  if (!session) throw toTrpcError(new DomainError("UNAUTHORIZED", "Sign in first: /sign-in"));
  if (session.setCookies.length > 0) ctx.setHeader("Set-Cookie", session.setCookies);
  if (type === "mutation") {
    assertOwnOrigin(ctx);
    if (!(await isCsrfTokenValid(ctx.db, session.sessionId, ctx.csrfToken))) {
      throw toTrpcError(new DomainError("FORBIDDEN", "This change needs the CSRF token of your session (the form's csrfToken, or X-CSRF-Token)"));
    }
  }
  return session;
}
