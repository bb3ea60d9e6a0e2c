import { Agent, request } from "node:http";
import { type FuzzCase } from "./model";

/** Sending the cases: raw HTTP requests, a few at a time. */

const CONCURRENCY = 8;
const REQUEST_TIMEOUT_MS = 30_000;

export interface Outcome {
  status: number;
  contentType: string;
  text: string;
  error?: string;
}

export const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });

/** A raw request: fetch would normalise the target, refuse some headers and set Host itself. */
function send(baseUrl: string, fuzzCase: FuzzCase): Promise<Outcome> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve) => {
    let settled = false;
    const settle = (outcome: Outcome) => {
      if (settled) return;
      settled = true;
      resolve(outcome);
    };
    let req: ReturnType<typeof request>;
    try {
      // An explicit length: Node sends a GET or DELETE body unframed, which the server would read as the next request.
      const headers = fuzzCase.body === undefined ? fuzzCase.headers : { ...fuzzCase.headers, "content-length": String(Buffer.byteLength(fuzzCase.body)) };
      req = request({ agent, hostname, port, method: fuzzCase.method, path: fuzzCase.target, headers, timeout: REQUEST_TIMEOUT_MS }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          settle({ status: res.statusCode ?? 0, contentType: String(res.headers["content-type"] ?? ""), text: Buffer.concat(chunks).toString("utf8") }),
        );
        res.on("error", (error) =>
          settle({ status: res.statusCode ?? 0, contentType: "", text: Buffer.concat(chunks).toString("utf8"), error: `response: ${error.message}` }),
        );
      });
    } catch (error) {
      // The client itself refused to send it: a generator bug, reported like any failure.
      settle({ status: 0, contentType: "", text: "", error: `client refused: ${(error as Error).message}` });
      return;
    }
    req.on("timeout", () => req.destroy(new Error(`no answer within ${REQUEST_TIMEOUT_MS} ms`)));
    req.on("error", (error) => settle({ status: 0, contentType: "", text: "", error: `request: ${error.message}` }));
    req.end(fuzzCase.body);
  });
}

export async function runAll(baseUrl: string, cases: FuzzCase[], onOutcome: (fuzzCase: FuzzCase, outcome: Outcome) => void): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < cases.length) {
      const fuzzCase = cases[next++]!;
      onOutcome(fuzzCase, await send(baseUrl, fuzzCase));
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}
