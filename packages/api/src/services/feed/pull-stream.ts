/** Thrown inside a producer whose consumer has stopped: it unwinds (a transaction rolls back). */
export class StreamCancelled extends Error {
  constructor() {
    super("the consumer stopped reading");
    this.name = "StreamCancelled";
  }
}

/**
 * Turns a producer that pushes values (from inside a callback such as a database transaction) into
 * an async iterator that pulls them: `emit` resolves only once the consumer has taken the value, so
 * at most one value waits while the consumer handles the previous one. The producer starts on the
 * first next(); return() (a `for await` that breaks, a client that disconnects) makes the pending
 * or next emit throw StreamCancelled and waits for the producer to unwind. `onClose` runs exactly
 * once, however the stream ends, even if it never started.
 */
export function pullStream<T>(
  produce: (emit: (value: T) => Promise<void>) => Promise<void>,
  onClose: () => void = () => {},
  /** A stream nobody starts reading within this is closed (a door that dropped it must not hold its slot). */
  unstartedTimeoutMs = 10_000,
): AsyncIterableIterator<T> {
  let started: Promise<void> | null = null;
  let finished = false;
  let failure: unknown = null;
  let cancelled = false;
  let closed = false;
  let offered: { value: T; taken: () => void; refused: (error: Error) => void } | null = null;
  let wakeConsumer: (() => void) | null = null;

  const wake = () => {
    const resume = wakeConsumer;
    wakeConsumer = null;
    resume?.();
  };
  const close = () => {
    if (closed) return;
    closed = true;
    onClose();
  };
  const emit = (value: T) =>
    new Promise<void>((taken, refused) => {
      if (cancelled) return refused(new StreamCancelled());
      offered = { value, taken, refused };
      wake();
    });
  const start = () =>
    (started ??= produce(emit).then(
      () => {
        finished = true;
        wake();
      },
      (error: unknown) => {
        finished = true;
        failure = error;
        wake();
      },
    ));

  const iterator: AsyncIterableIterator<T> = {
    async next(): Promise<IteratorResult<T>> {
      if (cancelled) return { done: true, value: undefined };
      void start();
      for (;;) {
        if (offered) {
          const { value, taken } = offered;
          offered = null;
          // Taken at once: the producer reads the next value while the consumer handles this one.
          taken();
          return { done: false, value };
        }
        if (finished) {
          close();
          if (failure && !(failure instanceof StreamCancelled)) throw failure;
          return { done: true, value: undefined };
        }
        await new Promise<void>((resume) => (wakeConsumer = resume));
      }
    },
    async return(): Promise<IteratorResult<T>> {
      cancelled = true;
      const pending = offered as { refused: (error: Error) => void } | null;
      offered = null;
      pending?.refused(new StreamCancelled());
      try {
        if (started) await started;
      } finally {
        close();
      }
      return { done: true, value: undefined };
    },
    [Symbol.asyncIterator]() {
      return iterator;
    },
  };
  const abandoned = setTimeout(() => {
    if (!started) void iterator.return?.();
  }, unstartedTimeoutMs);
  abandoned.unref?.();
  return iterator;
}
