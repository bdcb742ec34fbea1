// The trend pane of an ensemble bound to the model: Python's pane (`_trend`) drawn, the axis and
// log scales the user chooses set on `trend_by` and `trend_log`, and a click on a child's chart
// or on the breadcrumb set on `selection`, the trait a click in the tree sets: the tree marks the
// node, Python sees it and sends the pane of that node. Shown only while the widget draws an
// Ensemble (a `_trend` that is not empty), below the view's body: the tree (and the panes beside
// it) keep the cell's width.

/**
 * @typedef {import("./model.js").CCTModel} CCTModel
 * @typedef {import("./renderer-api.js").TrendPane} TrendPane
 */

/**
 * @param {{ model: CCTModel, el: HTMLElement, renderer: { command?: (name: string, value?: unknown) => void },
 *   create: (parent: HTMLElement, handlers: import("./renderer-api.js").TrendHandlers) => TrendPane }} options
 *   `renderer`: selects a node as a click in the tree does (it marks it and reports it: Python is told)
 * @returns {{ pane: TrendPane, dispose: () => void }}
 */
export function bindTrend({ model, el, renderer, create }) {
  const pane = create(el, {
    onSelect: (id) => renderer.command?.("select", [id]),
    onAxis(by) {
      model.set("trend_by", by);
      model.save_changes();
    },
    onLog(log) {
      model.set("trend_log", log);
      model.save_changes();
    },
  });
  const show = () => pane.setData(model.get("_trend"));
  const showLog = () => pane.setLog(model.get("trend_log") === true);
  model.on("change:_trend", show);
  model.on("change:trend_log", showLog);
  pane.setLog(model.get("trend_log") === true);
  show();
  return {
    pane,
    dispose() {
      model.off("change:_trend", show);
      model.off("change:trend_log", showLog);
      pane.destroy();
    },
  };
}
