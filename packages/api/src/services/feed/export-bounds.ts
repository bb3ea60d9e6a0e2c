import type { FeedExportLimits } from "./export-slots";

/** The export's NDJSON chunks, and the signal the service aborts when it cuts the export. */
export interface FeedExportStream extends AsyncIterableIterator<string | Uint8Array> {
  /**
   * Aborted (its reason an Error saying why) when the reader was too slow or the export ran too
   * long. The stream is then ended (its snapshot rolled back, its slot freed); the door drops the
   * connection, so the client sees no last line and knows the export is incomplete.
   */
  readonly cut: AbortSignal;
  /** Ends the export early (the client went away): its snapshot is rolled back and its slot freed. */
  return(): Promise<IteratorResult<string | Uint8Array>>;
}

/**
 * Bounds an export's hold on its slot: it is cut `maxDurationMs` after it opened, and at the end
 * of any rate window in which the reader took fewer than `minBytesPerSecond` bytes a second. What
 * the reader took is what the door pulled, which it does only as fast as the client reads.
 */
export function boundExport(stream: AsyncIterableIterator<string | Uint8Array>, limits: FeedExportLimits): FeedExportStream {
  const controller = new AbortController();
  let takenInWindow = 0;
  let deadline: NodeJS.Timeout | undefined;
  let windows: NodeJS.Timeout | undefined;
  const stop = () => {
    clearTimeout(deadline);
    clearInterval(windows);
  };
  const cut = (reason: string) => {
    stop();
    controller.abort(new Error(reason));
    void stream.return?.();
  };
  if (limits.maxDurationMs > 0) {
    deadline = setTimeout(() => cut(`the export ran longer than its maximum of ${limits.maxDurationMs / 1000} s`), limits.maxDurationMs);
    deadline.unref();
  }
  const minimumPerWindow = (limits.minBytesPerSecond * limits.rateWindowMs) / 1000;
  if (minimumPerWindow > 0) {
    windows = setInterval(() => {
      if (takenInWindow < minimumPerWindow) {
        cut(`the reader took ${takenInWindow} bytes in ${limits.rateWindowMs / 1000} s, under the minimum of ${limits.minBytesPerSecond} bytes a second`);
      }
      takenInWindow = 0;
    }, limits.rateWindowMs);
    windows.unref();
  }

  const bounded: FeedExportStream = {
    cut: controller.signal,
    async next() {
      try {
        const result = await stream.next();
        // The documents are ASCII JSON (ascii-json.ts): a string's length is its bytes.
        if (result.done) stop();
        else takenInWindow += result.value.length;
        return result;
      } catch (error) {
        stop();
        throw error;
      }
    },
    async return() {
      stop();
      return (await stream.return?.()) ?? { done: true, value: undefined };
    },
    [Symbol.asyncIterator]() {
      return bounded;
    },
  };
  return bounded;
}
