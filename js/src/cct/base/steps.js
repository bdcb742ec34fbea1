// Work in slices: a generator that yields between them (a big tree's layout, a big view's
// labels) is spread over several tasks by its caller, or run to its end at once with `runAll`.

/** Runs a generator to its end; returns what it returns. @template T @param {Iterator<unknown, T>} steps @returns {T} */
export function runAll(steps) {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}
