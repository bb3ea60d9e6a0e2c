import type { EventEmitter } from "node:events";
import autocannon from "autocannon";

export interface LoadResult {
  requests: number;
  rps: number;
  p50: number;
  p90: number;
  p95: number;
  p97_5: number;
  p99: number;
  non2xx: number;
  errors: number;
}

/** The latency at quantile q of sorted samples, in whole milliseconds (as autocannon reports). */
function quantile(sorted: number[], q: number): number {
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] ?? 0);
}

/**
 * Closed-loop load on loopback, bounded in time; paths rotate so caches cannot flatter one query.
 * Percentiles come from every response's own time (autocannon's summary has no p95); a 15 s run
 * keeps at most a few hundred thousand numbers.
 */
export async function runLoad(
  baseUrl: string,
  paths: string[],
  options: { connections: number; seconds: number; headers?: Record<string, string> },
): Promise<LoadResult> {
  let next = 0;
  const latencies: number[] = [];
  const instance = autocannon({
    url: baseUrl,
    connections: options.connections,
    duration: options.seconds,
    headers: options.headers,
    requests: [
      {
        setupRequest: (request) => {
          request.path = paths[next++ % paths.length] ?? "/";
          return request;
        },
      },
    ],
  });
  // autocannon's instance is a promise and an event emitter; its types know only the promise.
  (instance as unknown as EventEmitter).on("response", (_client: unknown, _status: number, _bytes: number, responseTime: number) =>
    latencies.push(responseTime),
  );
  const result = await instance;
  latencies.sort((a, b) => a - b);
  return {
    requests: result.requests.total,
    rps: Math.round(result.requests.average),
    p50: quantile(latencies, 0.5),
    p90: quantile(latencies, 0.9),
    p95: quantile(latencies, 0.95),
    p97_5: quantile(latencies, 0.975),
    p99: quantile(latencies, 0.99),
    non2xx: result.non2xx,
    errors: result.errors,
  };
}
