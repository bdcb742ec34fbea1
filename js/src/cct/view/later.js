// A big new table's first picture, in a task of its own. Receiving a table (decoding, subtree
// statistics, the toolbar) and drawing it (the view tree, the folds of a first picture, layout,
// scene) each walk every row; at 10^5 rows together they froze the page for one task of ~160 ms.
// The drawing is put off to the tasks after it, in steps (the view tree and the folds, then
// layout and scene), so that no task runs past ~100 ms — and anything that needs the picture
// before then (a command, a gesture, Python asking where a node is) draws it at once: nothing
// ever sees a table without its picture. The layout of a big tree (10^5 nodes: ~200 ms) is a
// resumable step, run in slices over several tasks.

/**
 * A step: a function, or a resumable one that returns an iterator (a generator), which the
 * tasks after it run a slice at a time (`next()`) until it is done.
 * @typedef {() => unknown} Step
 */

/** @param {unknown} v @returns {v is Iterator<unknown>} */
const isIterator = (v) =>
  typeof v === "object" && v !== null && typeof (/** @type {Iterator<unknown>} */ (v).next) === "function";

/**
 * Steps put off to the tasks after this one, a task each (a new schedule replaces them); a
 * resumable step keeps the head of the queue, over as many tasks as it takes, each running its
 * slices for about `budget` ms.
 * @param {(Window & typeof globalThis) | null} win where timers run (none: steps run at once)
 * @param {number} [budget] ms of slices of a resumable step per task (0: one slice)
 */
export function createLater(win, budget = 30) {
  /** @type {Step[]} */
  let steps = [];
  /** @type {Iterator<unknown> | null} the resumable step under way */
  let current = null;
  let timer = 0;
  let running = false;
  const now = () => win?.performance?.now() ?? Date.now();
  /** Runs the next step, or slices of the one under way until `deadline` (at least one). @param {number} deadline */
  const advance = (deadline) => {
    if (!current) {
      const made = steps.shift()?.();
      if (!isIterator(made)) return; // a plain step (whatever it returned)
      current = made;
    }
    const it = current;
    try {
      while (!it.next().done) if (current !== it || now() >= deadline) return;
    } catch (error) {
      if (current === it) current = null;
      throw error;
    }
    if (current === it) current = null;
  };
  const next = () => {
    timer = 0;
    running = true;
    try {
      advance(now() + budget);
    } finally {
      running = false;
      if (later.pending && win && !timer) timer = win.setTimeout(next, 0);
    }
  };
  const later = {
    /** Steps are waiting. */
    get pending() {
      return steps.length > 0 || current !== null;
    },
    /** Runs each step in tasks of its own, in order (all at once without a window).
     * @param {Step[]} list */
    schedule(list) {
      later.cancel();
      steps = [...list];
      if (win) timer = win.setTimeout(next, 0);
      else later.flush();
    },
    /** Runs the waiting steps to their end now, if there are any (from inside a step: they
     * keep their tasks). */
    flush() {
      if (running) return;
      running = true;
      try {
        while (later.pending) advance(Infinity);
      } finally {
        running = false;
      }
      later.cancel();
    },
    /** Drops the waiting steps. */
    cancel() {
      steps = [];
      current = null;
      if (timer) win?.clearTimeout(timer);
      timer = 0;
    },
  };
  return later;
}

/**
 * `api` with `flush()` first in every method and getter but the `immediate` ones: a caller
 * reading or changing the view always finds its picture drawn.
 * @template {object} T @param {T} api @param {() => void} flush @param {Set<string>} immediate
 * @returns {T}
 */
export function flushedFirst(api, flush, immediate) {
  for (const [key, d] of Object.entries(Object.getOwnPropertyDescriptors(api))) {
    if (immediate.has(key)) continue;
    const { get, value } = d;
    if (get) {
      Object.defineProperty(api, key, {
        ...d,
        get() {
          flush();
          return get.call(api);
        },
      });
    } else if (typeof value === "function") {
      Object.defineProperty(api, key, {
        ...d,
        value: (/** @type {unknown[]} */ ...args) => {
          flush();
          return value.apply(api, args);
        },
      });
    }
  }
  return api;
}
