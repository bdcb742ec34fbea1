// The table pane bound to the model: which table shows (`table_mode`, `sandwich`), its rows from
// Python (`rows` requests), picks that select in Python (`pick`), and the shared state going to
// it (selection, search, focus, roots, colour and size metrics, table_metrics, reducer, units);
// the Columns menu sets table_metrics. Beside
// the tree in wide cells, below it in narrow ones. Without a kernel (a restart, a notebook reopened from its saved
// widget state) there are no rows to load: the pane says why and what brings them back.
import { isDisconnected } from "./connection.js";

/**
 * @typedef {import("./model.js").CCTModel} CCTModel
 * @typedef {import("./lod-client.js").LodClient} LodClient
 * @typedef {import("./renderer-api.js").TablePane} TablePane
 * @typedef {import("./renderer-api.js").PaneMode} PaneMode
 */

/** Cells narrower than this put the pane below the tree. */
export const BESIDE_FROM = 760;
/** What an ensemble's profile strip takes beside the tree: with the pane open too, cells
 * narrower than BESIDE_FROM plus this put the pane below the strip and the tree. */
export const STRIP_ROOM = 320;

/** The empty pane's note when no kernel answers. */
export const NO_KERNEL_ROWS =
  "The table's rows come from Python, and this view is not connected to a kernel " +
  "(it was restarted or stopped, or the notebook was reopened). Run the cell again to see them.";

/**
 * @param {{ model: CCTModel, body: HTMLElement, client: LodClient,
 *   create: (parent: HTMLElement, handlers: import("./renderer-api.js").PaneHandlers) => TablePane,
 *   changes: { fetch: () => Promise<unknown>, compare: (index: number) => void },
 *   warn?: (text: string) => void }} options
 *   `body`: the element holding the renderer; the pane goes in it too
 * @returns {{ pane: TablePane, treeSelected: (ids: number[]) => void, layout: (width: number) => void,
 *   reload: () => void, dispose: () => void }}
 */
export function bindPane({ model, body, client, create, changes, warn = (text) => console.warn(text) }) {
  /** @param {unknown} error */
  const report = (error) => {
    // no kernel: the view's note says so once, not the console each time
    if (!isDisconnected(error)) warn(`cctviz: ${error instanceof Error ? error.message : String(error)}`);
  };
  /** @param {Partial<import("./model.js").Traits>} values */
  const save = (values) => {
    for (const [name, value] of Object.entries(values)) {
      model.set(/** @type {any} */ (name), /** @type {any} */ (value));
    }
    model.save_changes();
  };
  let searchTimer = /** @type {ReturnType<typeof setTimeout> | undefined} */ (undefined);

  const pane = create(body, {
    async fetchRows(request) {
      try {
        return (await client.request("rows", { ...request })).rows;
      } catch (error) {
        throw isDisconnected(error) ? new Error(NO_KERNEL_ROWS) : error; // shown in the empty pane
      }
    },
    pick(request) {
      client.request("pick", { ...request }).catch(report);
    },
    async fetchSource(node) {
      try {
        return (await client.request("source", { node })).source;
      } catch (error) {
        throw isDisconnected(error) ? new Error(NO_KERNEL_ROWS) : error; // shown in the tab
      }
    },
    async fetchRanks(node) {
      try {
        return (await client.request("ranks", { node })).ranks;
      } catch (error) {
        throw isDisconnected(error) ? new Error(NO_KERNEL_ROWS) : error; // shown in the tab
      }
    },
    setRank: (rank) => save({ rank }),
    setColumns: (names) => save({ table_metrics: names }),
    focus: (node) => save({ focused: node }),
    sandwich: (name) => save({ sandwich: name, table_mode: "sandwich" }),
    setMode: (mode) => save({ table_mode: mode }),
    search(text) {
      clearTimeout(searchTimer);
      searchTimer = setTimeout(() => save({ search: text }), 150);
    },
    changes: {
      async fetch() {
        try {
          return await changes.fetch();
        } catch (error) {
          throw isDisconnected(error) ? new Error(NO_KERNEL_ROWS) : error; // shown in the tab
        }
      },
      compare: changes.compare,
    },
  });
  const isOpen = () => (model.get("table_mode") ?? "off") !== "off";
  const hasStrip = () => Object.keys(model.get("_strip") ?? {}).length > 0;
  let width = 0;
  /** Beside the tree from BESIDE_FROM pixels on (with a strip and the pane open: from
   * BESIDE_FROM + STRIP_ROOM), below it in narrower cells. @param {number} [w] the cell's width */
  const layout = (w = width) => {
    width = w;
    const narrow = w > 0 && w < BESIDE_FROM;
    body.classList.toggle("cct-body-narrow", narrow);
    body.classList.toggle("cct-body-crowded", !narrow && isOpen() && hasStrip() && w < BESIDE_FROM + STRIP_ROOM);
  };
  // the Changes tab is an ensemble's (one with a profile strip)
  const ensemble = () => {
    pane.setChanges(hasStrip());
    layout();
  };
  const show = () => {
    layout();
    pane.show(model.get("table_mode") ?? "off", model.get("sandwich") ?? "").then(selectionIn, report);
  };
  const selectionIn = () => {
    if (!isOpen()) return;
    const ids = model.get("selection") ?? [];
    if (!ids.length) {
      pane.setSelection([], [], []).catch(report);
      return;
    }
    client
      .request("locate", { nodes: ids.slice(0, 100) })
      .then((reply) => pane.setSelection(ids, reply.located?.names ?? [], reply.located?.paths ?? []))
      .catch(report);
  };
  const searchIn = () =>
    pane.setSearch(model.get("search") ?? "", {
      regex: !!model.get("search_regex"),
      caseSensitive: !!model.get("search_case"),
    });
  const reload = () => {
    if (isOpen()) pane.reload().then(selectionIn, report);
  };
  let tree = treeOf(model.get("_payload"));
  const metricsIn = () => pane.setMetrics(metricsOf(model.get("_payload")));
  const unitsIn = () => pane.setUnits(model.get("units") ?? {});
  function onPayload() {
    metricsIn();
    const next = treeOf(model.get("_payload"));
    if (next === tree) return; // more nodes of the same tree (level of detail): the rows hold
    tree = next;
    reload();
  }

  /** @type {[import("./model.js").ChangeEvent, () => void][]} */
  const listeners = [
    ["change:table_mode", show],
    ["change:sandwich", show],
    ["change:selection", selectionIn],
    ["change:search", searchIn],
    ["change:search_regex", searchIn],
    ["change:search_case", searchIn],
    ["change:focused", reload],
    ["change:visible_roots", reload],
    ["change:color_by", reload],
    ["change:size_by", reload],
    ["change:table_metrics", reload],
    ["change:reducer", reload],
    ["change:rank", reload],
    ["change:_payload", onPayload],
    ["change:_strip", ensemble],
    ["change:units", unitsIn],
  ];
  // after the change is sent: a change made here (model.set, then save_changes) must reach
  // Python before the rows it asks for
  /** @type {(() => void)[]} */
  const deferred = listeners.map(
    ([, listener]) =>
      () =>
        queueMicrotask(listener),
  );
  listeners.forEach(([event], i) => {
    model.on(event, deferred[i]);
  });
  searchIn();
  metricsIn();
  unitsIn();
  ensemble();
  show();

  return {
    pane,
    /**
     * The user selected nodes in the tree: an open sandwich follows the selected function.
     * @param {number[]} ids
     */
    treeSelected(ids) {
      if (model.get("table_mode") !== "sandwich" || ids.length !== 1) return;
      client
        .request("locate", { nodes: ids })
        .then((reply) => {
          const name = reply.located?.names[0];
          if (name && name !== model.get("sandwich")) save({ sandwich: name });
        })
        .catch(report);
    },
    /** The rows load again (the kernel is back). */
    reload,
    layout,
    dispose() {
      clearTimeout(searchTimer);
      listeners.forEach(([event], i) => {
        model.off(event, deferred[i]);
      });
      pane.destroy();
    },
  };
}

/** The names of the metrics a payload holds (the Columns menu's). @param {unknown} payload @returns {string[]} */
function metricsOf(payload) {
  const metrics =
    typeof payload === "object" && payload !== null ? /** @type {{ metrics?: unknown }} */ (payload).metrics : null;
  if (!Array.isArray(metrics)) return [];
  return metrics.flatMap((m) => (typeof m?.name === "string" ? [m.name] : []));
}

/** The name of the full tree a payload holds a table of. @param {unknown} payload */
function treeOf(payload) {
  return typeof payload === "object" && payload !== null
    ? /** @type {Record<string, unknown>} */ (payload).tree
    : undefined;
}
