// The toolbar's roots menu: a check box per tree (and "All") choosing the roots shown, a button
// that shows only one, and, for a DAG, whether its other call edges are drawn. It shows the view
// state (`update`) and dispatches what the user chooses; roots are full-tree node ids.
import { append } from "../base/dom.js";

/** @typedef {import("../../contract.js").ViewState} ViewState */
/** @typedef {import("../data/ids.js").NodeId} NodeId */

/**
 * @param {HTMLElement} group the toolbar's group the menu goes in
 * @param {import("../state/commands.js").Dispatch} dispatch
 */
export function createRootsMenu(group, dispatch) {
  const menu = append(group, "details", { className: "cct-roots" });
  const summary = append(menu, "summary", {
    text: "roots: all",
    attrs: { "aria-label": "Choose the trees to show" },
  });
  const list = append(menu, "div", { className: "cct-roots-list" });
  /** @type {Map<HTMLInputElement, NodeId | "all" | "callerEdges">} each box and what it stands for */
  let boxes = new Map();

  return {
    /**
     * New data: a box per root, and the DAG's other call edges.
     * @param {import("../data/decode.js").Table} table
     * @param {{ id: NodeId, name: string }[]} rootNames the trees' root nodes
     */
    setData(table, rootNames) {
      list.replaceChildren();
      boxes = new Map();
      const all = append(list, "label", { className: "cct-field" });
      const allBox = /** @type {HTMLInputElement} */ (
        append(all, "input", { attrs: { type: "checkbox", "data-root": "all" } })
      );
      boxes.set(allBox, "all");
      append(all, "span", { text: "All" });
      allBox.addEventListener("change", () => dispatch({ type: "set", state: { roots: null } }));
      for (const { id, name } of rootNames) {
        const row = append(list, "label", { className: "cct-field" });
        const box = /** @type {HTMLInputElement} */ (
          append(row, "input", { attrs: { type: "checkbox", "data-root": String(id) } })
        );
        boxes.set(box, id);
        append(row, "span", { text: name });
        box.addEventListener("change", () => dispatch({ type: "toggleRoot", id }));
        // one click isolates a tree, however many roots there are
        const only = append(list, "button", {
          className: "cct-only-root",
          text: "only",
          attrs: { type: "button", "data-only-root": String(id), "aria-label": `Show only ${name}` },
        });
        only.addEventListener("click", () => dispatch({ type: "set", state: { roots: [id] } }));
      }
      if (table.extraEdges > 0) {
        // a DAG: its other call edges, drawn dashed on demand
        const row = append(list, "label", { className: "cct-field cct-caller-edges" });
        const box = /** @type {HTMLInputElement} */ (
          append(row, "input", { attrs: { type: "checkbox", "data-caller-edges": "" } })
        );
        boxes.set(box, "callerEdges");
        append(row, "span", { text: `other callers (${table.extraEdges} dashed edges)` });
        box.addEventListener("change", () => dispatch({ type: "set", state: { callerEdges: box.checked } }));
      }
    },

    /** Shows the roots of the view state. @param {ViewState} view @param {number} rootCount trees in the data */
    update(view, rootCount) {
      const shown = view.roots ? new Set(view.roots) : null;
      for (const [box, of] of boxes) {
        box.checked = of === "callerEdges" ? view.callerEdges : of === "all" ? !shown : !shown || shown.has(of);
      }
      summary.textContent = shown ? `roots: ${shown.size} of ${rootCount}` : `roots: all ${rootCount}`;
    },
  };
}
