import type { TestSmtpServer } from "@directory/api/testing";

/*
 * A person's session over the real HTTP doors, as a program (not a browser) holds it: the cookie
 * the server set, and the CSRF token account.me gives, sent as X-CSRF-Token.
 */

export interface HttpSession {
  cookie: string;
  csrfToken: string;
}

/** One tRPC call over HTTP in superjson's envelope; mutations POST, queries GET. */
export async function trpcCall(
  baseUrl: string,
  path: string,
  kind: "query" | "mutation",
  input: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  const envelope = JSON.stringify({ json: input });
  if (kind === "query") return fetch(`${baseUrl}/trpc/${path}?input=${encodeURIComponent(envelope)}`, { headers });
  return fetch(`${baseUrl}/trpc/${path}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: envelope });
}

export async function trpcData<T>(response: Response): Promise<T> {
  const body = (await response.json()) as { result?: { data: { json: T } }; error?: unknown };
  if (!response.ok || !body.result) throw new Error(`tRPC call failed (${response.status}): ${JSON.stringify(body)}`);
  return body.result.data.json;
}

/** Signs in through the real mail: account.signIn.request, the link from the SMTP server, account.signIn.complete. */
export async function signInOverHttp(baseUrl: string, smtp: TestSmtpServer, email: string): Promise<HttpSession> {
  await trpcData(await trpcCall(baseUrl, "account.signIn.request", "mutation", { email }));
  const link = /https?:\/\/\S+\/sign-in\/magic-link\/verify\?\S+/.exec((await smtp.nextMail(email)).text)?.[0];
  if (!link) throw new Error("no sign-in link in the mail");
  const completed = await trpcCall(baseUrl, "account.signIn.complete", "mutation", { token: new URL(link).searchParams.get("token") });
  await trpcData(completed);
  const cookie = completed.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ");
  const me = await trpcData<{ csrfToken: string }>(await trpcCall(baseUrl, "account.me", "query", undefined, { cookie }));
  return { cookie, csrfToken: me.csrfToken };
}

export function sessionHeaders(session: HttpSession): Record<string, string> {
  return { cookie: session.cookie, "x-csrf-token": session.csrfToken };
}
