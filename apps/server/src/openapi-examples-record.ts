import { createExampleKeys, keyPlaceholder, prepareExample, sendExample, type ExampleRequest, type KeyKind } from "./openapi-examples";
import type { TestServer } from "./testing";

/** How an example call is sent and kept (openapi-examples-reads.ts and -writes.ts make the calls). */

export interface Step {
  operationId: string;
  summary: string;
  request: ExampleRequest;
}

export interface Recorded extends Step {
  status: number;
  response: unknown;
}

/** Sends a step on the server and records it; a status other than 2xx stops the recording. T is the answer the caller reads. */
export type Run = <T = unknown>(step: Step) => Promise<T>;

export function keyed(kind: KeyKind): Record<string, string> {
  return { Authorization: keyPlaceholder(kind) };
}

/** A recorder on a server: `run` sends a step and keeps it in `recorded`. */
export async function recorder(server: TestServer): Promise<{ run: Run; recorded: Recorded[] }> {
  const keys = await createExampleKeys(server.database);
  const recorded: Recorded[] = [];
  const run: Run = async <T>(step: Step): Promise<T> => {
    await prepareExample(step.operationId, step.request, server.database);
    const { status, body } = await sendExample(server.url, step.request, keys);
    if (status < 200 || status > 299) throw new Error(`${step.operationId}: ${status} ${JSON.stringify(body)}`);
    recorded.push({ ...step, status, response: body });
    return body as T;
  };
  return { run, recorded };
}
