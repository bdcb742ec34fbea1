// Mounting what the front-end tests drive: a renderer in a new container of the page, with what
// it reports collected, and a table pane with handlers that record their calls.
import { afterEach, vi } from "vitest";
import { decodeTable } from "../../src/cct/data/decode.js";
import { createTablePane } from "../../src/cct/pane/table-pane.js";
import { createRenderer } from "../../src/cct/view/renderer.js";

/** Renderers mounted by the running test, destroyed after it (a test may destroy one itself):
 * none keeps a later task (a label slice) that would fire once the test environment is gone. */
const mounted = new Set();
afterEach(() => {
  for (const renderer of mounted) renderer.destroy();
});

/** The view state most tests draw with: colour and size by the fixtures' time metrics. */
export const TIME = Object.freeze({ colorBy: "time", sizeBy: "time (inc)" });

/** Layout options under which a first picture's labels are drawn with its marks (as a figure's),
 * for tests of where labels go rather than when. */
export const LABELS_AT_ONCE = Object.freeze({ firstLabelsLaterAbove: Number.POSITIVE_INFINITY });

/** Layout options under which a view's first table is drawn in the task that receives it (as a
 * figure's), for tests of what is drawn rather than when (`firstDrawLaterAbove` is 500 rows). */
export const DRAWN_AT_ONCE = Object.freeze({ firstDrawLaterAbove: Number.POSITIVE_INFINITY });

/**
 * `createRenderer`, its renderer destroyed after the running test (a test may destroy it first;
 * a second destroy does nothing).
 * @param {HTMLElement} container @param {Parameters<typeof createRenderer>[1]} options
 */
export function newRenderer(container, options) {
  const renderer = createRenderer(container, options);
  const destroy = renderer.destroy;
  renderer.destroy = () => {
    if (mounted.delete(renderer)) destroy();
  };
  mounted.add(renderer);
  return renderer;
}

/**
 * A renderer of `width` × `height` (900 × 500 unless given) in a new container of the page. With
 * `data` (a payload spec of fixtures.js, decoded here, or a decoded table) it is given `state`
 * (TIME unless given), then the table. Selections, changes and level-of-detail expansions it
 * reports are collected; `options` may replace those callbacks.
 * @param {object | import("../../src/cct/data/decode.js").Table | null} data null: no table yet
 * @param {{ state?: object } & Parameters<typeof createRenderer>[1]} [options]
 */
export function mountRenderer(data, { state = TIME, ...options } = {}) {
  const container = document.body.appendChild(document.createElement("div"));
  /** @type {number[][]} */ const selections = [];
  /** @type {object[]} */ const changes = [];
  /** @type {number[]} */ const expanded = [];
  const renderer = newRenderer(container, {
    width: 900,
    height: 500,
    onSelect: (ids) => selections.push(ids),
    onChange: (change) => changes.push(change),
    onLoadMore: (node) => expanded.push(node),
    ...options,
  });
  const table = data === null ? null : "rowOf" in data ? data : decodeTable(data);
  if (table) {
    renderer.setState(state);
    renderer.setData(table);
  }
  return { container, renderer, table, selections, changes, expanded };
}

/**
 * A table pane in the page whose handlers are mocks; `fetchRows` answers for Python, and
 * `fetchChanges` for its `changes` request (by default: none).
 * @param {(request: any) => Promise<object>} fetchRows
 * @param {() => Promise<object>} [fetchChanges]
 */
export function mountPane(fetchRows, fetchChanges = async () => ({ metric: "t", by: "run", rows: [] })) {
  const handlers = {
    fetchRows: vi.fn(fetchRows),
    pick: vi.fn(),
    focus: vi.fn(),
    sandwich: vi.fn(),
    setMode: vi.fn(),
    search: vi.fn(),
    changes: { fetch: vi.fn(fetchChanges), compare: vi.fn() },
    fetchSource: vi.fn(async () => null),
    fetchRanks: vi.fn(async () => null),
    setRank: vi.fn(),
    setColumns: vi.fn(),
  };
  return { p: createTablePane(document.body, handlers), handlers };
}
