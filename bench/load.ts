import autocannon from "autocannon";

export interface LoadResult {
  requests: number;
  rps: number;
  p50: number;
  p90: number;
  /** autocannon reports no p95; p97.5 bounds it from above. */
  p97_5: number;
  p99: number;
  non2xx: number;
  errors: number;
}

/** Closed-loop load on loopback, bounded in time; paths rotate so caches cannot flatter one query. */
export async function runLoad(baseUrl: string, paths: string[], options: { connections: number; seconds: number }): Promise<LoadResult> {
  let next = 0;
  const result = await autocannon({
    url: baseUrl,
    connections: options.connections,
    duration: options.seconds,
    requests: [
      {
        setupRequest: (request) => {
          request.path = paths[next++ % paths.length] ?? "/";
          return request;
        },
      },
    ],
  });
  return {
    requests: result.requests.total,
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p90: result.latency.p90,
    p97_5: result.latency.p97_5,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}
