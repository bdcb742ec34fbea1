// Work in slices: a generator that yields between them (a big tree's layout, a big view's
// labels) is spread over several tasks by its caller, or run to its end at once with `runAll`.

/** Runs a generator to its end; returns what it returns. @template T @param {Iterator<unknown, T>} steps @returns {T} */
export function runAll(steps) {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * Items a pass over a big view's items (view tree, marks, links, their fans, labels) handles
 * between two yields. The callers run slices for a budget of a task's time (later.js, slices.js,
 * painter-labels.js) and check it between slices, so a task runs over its budget by up to one
 * slice: at 20,000 items cold code took 10-25 ms a slice, tasks of 50-60 ms before any
 * collection landed in them. A yield costs a generator's resumption: nothing beside a slice.
 */
export const SLICE_ITEMS = 5_000;
