import http from "node:http";
import https from "node:https";
import { checkWebhookUrl, guardedLookup, signatureHeaders, type AttemptOutcome, type ClaimedDelivery, type OutboundPolicy } from "@directory/api";

/** A receiver's answer is read up to this much, and only a short excerpt is kept in the log. */
const RESPONSE_READ_LIMIT = 4096;
const EXCERPT_LENGTH = 200;

function excerpt(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > EXCERPT_LENGTH ? `${flat.slice(0, EXCERPT_LENGTH)}…` : flat;
}

/**
 * One attempt: POST the fixed body with fresh signature headers, to the address the guarded
 * lookup allows (checked on the address actually connected to, every time), no redirects
 * followed, a hard timeout, and a bounded read of the answer.
 */
export function sendDelivery(delivery: ClaimedDelivery, options: { outbound: OutboundPolicy; timeoutMs: number; userAgent: string }): Promise<AttemptOutcome> {
  const attemptedAt = new Date();
  const started = performance.now();
  let url: URL;
  try {
    // Node skips the lookup for an IP literal, so the URL itself is checked again on every attempt.
    url = checkWebhookUrl(delivery.url, options.outbound);
  } catch (error) {
    return Promise.resolve({ attemptedAt, durationMs: 0, statusCode: null, error: `Refused to connect: ${(error as Error).message}` });
  }
  const transport = url.protocol === "https:" ? https : http;
  const headers = {
    ...signatureHeaders({ secrets: delivery.secrets, eventId: delivery.eventId, timestamp: attemptedAt, body: delivery.body }),
    "content-type": "application/json",
    "content-length": Buffer.byteLength(delivery.body).toString(),
    "user-agent": options.userAgent,
  };
  return new Promise<AttemptOutcome>((resolve) => {
    let settled = false;
    const finish = (statusCode: number | null, error: string | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ attemptedAt, durationMs: Math.round(performance.now() - started), statusCode, error });
    };
    const request = transport.request(url, { method: "POST", headers, lookup: guardedLookup(options.outbound), agent: false }, (response) => {
      const status = response.statusCode ?? 0;
      const chunks: Buffer[] = [];
      let read = 0;
      response.on("data", (chunk: Buffer) => {
        if (read < RESPONSE_READ_LIMIT) chunks.push(chunk.subarray(0, RESPONSE_READ_LIMIT - read));
        read += chunk.length;
        if (read >= RESPONSE_READ_LIMIT) response.destroy();
      });
      const done = () => {
        if (status >= 200 && status < 300) return finish(status, null);
        const said = excerpt(Buffer.concat(chunks).toString("utf8"));
        const redirect = status >= 300 && status < 400 ? " (redirects are not followed)" : "";
        finish(status, `The receiver answered ${status}${redirect}${said ? `: ${said}` : ""}`);
      };
      response.on("end", done);
      response.on("close", done);
      response.on("error", done);
    });
    const timer = setTimeout(() => {
      request.destroy();
      finish(null, `No answer within ${options.timeoutMs} ms`);
    }, options.timeoutMs);
    request.on("error", (error: NodeJS.ErrnoException) => {
      finish(null, error.code === "EADDRBLOCKED" ? `Refused to connect: ${error.message}` : `Could not deliver: ${error.code ?? error.message}`);
    });
    request.end(delivery.body);
  });
}
