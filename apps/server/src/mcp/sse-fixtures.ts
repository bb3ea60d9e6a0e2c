import { request, type IncomingMessage } from "node:http";

/** Legacy MCP SSE sessions opened over raw HTTP, for the tests of their caps. */

export interface OpenSse {
  status: number;
  /** The refusal's JSON body (refused sessions only). */
  body: unknown;
  retryAfter: string | undefined;
  /** The message endpoint the session announced (SSE sessions only). */
  endpoint: string | undefined;
  /** Settles when the server ends the stream. */
  ended: Promise<void>;
  close(): void;
}

/** Opens a legacy SSE session and waits for its endpoint event (or the refusal). */
export function openSse(baseUrl: string, headers: Record<string, string> = {}) {
  return new Promise<OpenSse>((resolve, reject) => {
    const req = request(new URL("/api/mcp/sse", baseUrl), { headers: { accept: "text/event-stream", ...headers } }, (res: IncomingMessage) => {
      const ended = new Promise<void>((settle) => res.on("close", () => settle()));
      const close = () => req.destroy();
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        text += chunk;
        const endpoint = /event: endpoint\ndata: (\S+)/.exec(text)?.[1];
        if (endpoint) resolve({ status: res.statusCode ?? 0, body: undefined, retryAfter: undefined, endpoint, ended, close });
      });
      res.on("end", () => {
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          // not JSON: the assertions say so
        }
        resolve({ status: res.statusCode ?? 0, body, retryAfter: res.headers["retry-after"], endpoint: undefined, ended, close });
      });
    });
    req.on("error", reject);
    req.end();
  });
}
