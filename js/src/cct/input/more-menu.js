// The toolbar's "⋯" menu: the controls used less (colour scale, legends, ranks, table, roots,
// tree and selection tools, saving, the prune range) in a panel that opens over the tree, so the
// toolbar keeps one row. The panel follows its button in the tab order; Escape closes it and
// gives the focus back to the button, and so does a button of the panel once it has acted; the
// focus going outside the toolbar (a click on the tree, Tab past the panel) closes it.
import { append } from "../base/dom.js";
import { popover } from "./popover.js";

let menus = 0;

const NAME = "More controls";

/** @param {HTMLElement} bar the toolbar */
export function createMoreMenu(bar) {
  const id = `cct-more-${++menus}`;
  const button = /** @type {HTMLButtonElement} */ (
    append(bar, "button", {
      className: "cct-more",
      text: "⋯",
      attrs: { type: "button", title: NAME, "aria-label": NAME, "aria-expanded": "false", "aria-controls": id },
    })
  );
  const panel = append(bar, "div", {
    className: "cct-menu",
    attrs: { id, role: "group", "aria-label": NAME, hidden: "" },
  });
  const set = popover(button, panel, bar);
  button.addEventListener("click", () => set(panel.hidden));
  // a button of the panel acts, then the menu closes (a picker's button opens its list instead)
  panel.addEventListener("click", (event) => {
    const b = event.target instanceof Element ? event.target.closest("button") : null;
    if (b && !b.hasAttribute("aria-haspopup")) set(false, true);
  });
  return { button, panel, close: () => set(false) };
}
