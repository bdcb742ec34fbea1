// Keep only the latest request's answer: the Source, Ranks and Changes tabs ask the kernel
// again whenever the selection or the tab changes, and an older request's answer (or error)
// that arrives after a newer request started is dropped, never shown over the newer one.

/**
 * A sequence of requests of which only the latest counts.
 * @returns {{ run: <T>(ask: () => Promise<T> | T, use: (answer: T) => void, fail: (error: unknown) => void) => Promise<void>,
 *   cancel: () => void }}
 *   `run(ask, use, fail)` starts a request: `use` gets its answer, `fail` what it (or `use`)
 *   threw, each only while no later request started and `cancel` was not called since.
 */
export function latestOnly() {
  let generation = 0;
  return {
    async run(ask, use, fail) {
      const mine = ++generation;
      try {
        const answer = await ask();
        if (mine === generation) use(answer);
      } catch (error) {
        if (mine === generation) fail(error);
      }
    },
    cancel() {
      generation += 1;
    },
  };
}
