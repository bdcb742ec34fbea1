// A big new table's first picture, in a task of its own. Receiving a table (decoding, subtree
// statistics, the toolbar) and drawing it (the view tree, the folds of a first picture, layout,
// scene) each walk every row; at 10^5 rows together they froze the page for one task of ~160 ms.
// The drawing is put off to the tasks after it, in steps (the view tree and the folds, then
// layout and scene), so that no task runs past ~100 ms — and anything that needs the picture
// before then (a command, a gesture, Python asking where a node is) draws it at once: nothing
// ever sees a table without its picture.

/**
 * Steps put off to the tasks after this one, a task each (a new schedule replaces them).
 * @param {(Window & typeof globalThis) | null} win where timers run (none: steps run at once)
 */
export function createLater(win) {
  /** @type {(() => void)[]} */
  let steps = [];
  let timer = 0;
  let running = false;
  const next = () => {
    timer = 0;
    const step = steps.shift();
    if (steps.length && win) timer = win.setTimeout(next, 0);
    running = true;
    try {
      step?.();
    } finally {
      running = false;
    }
  };
  const later = {
    /** Steps are waiting. */
    get pending() {
      return steps.length > 0;
    },
    /** Runs each step in a task of its own, in order (all at once without a window).
     * @param {(() => void)[]} list */
    schedule(list) {
      later.cancel();
      steps = [...list];
      if (win) timer = win.setTimeout(next, 0);
      else later.flush();
    },
    /** Runs the waiting steps now, if there are any (from inside a step: they keep their tasks). */
    flush() {
      if (running) return;
      while (steps.length) next();
      later.cancel();
    },
    /** Drops the waiting steps. */
    cancel() {
      steps = [];
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
