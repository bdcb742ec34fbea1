// The toolbar's "⋯" menu: the controls used less (colour scale, legends, ranks, table, roots,
// tree and selection tools, saving, the prune range) in a panel that opens over the tree, so the
// toolbar keeps one row. The panel follows its button in the tab order; Escape closes it and
// gives the focus back to the button, and so does a button of the panel once it has acted; the
// focus going outside the toolbar (a click on the tree, Tab past the panel) closes it.
import { append } from "../base/dom.js";

let menus = 0;

/** @param {HTMLElement} bar the toolbar */
export function createMoreMenu(bar) {
  const id = `cct-more-${++menus}`;
  const button = /** @type {HTMLButtonElement} */ (
    append(bar, "button", {
      className: "cct-more",
      text: "⋯",
      attrs: {
        type: "button",
        title: "More controls",
        "aria-label": "More controls",
        "aria-expanded": "false",
        "aria-controls": id,
      },
    })
  );
  const panel = append(bar, "div", {
    className: "cct-menu",
    attrs: { id, role: "group", "aria-label": "More controls", hidden: "" },
  });
  /** @param {boolean} open @param {boolean} [refocus] the focus goes back to "⋯" */
  const set = (open, refocus = false) => {
    panel.hidden = !open;
    button.setAttribute("aria-expanded", String(open));
    bar.classList.toggle("cct-open", open);
    if (refocus) button.focus();
  };
  const isOpen = () => !panel.hidden;
  button.addEventListener("click", () => set(!isOpen()));
  panel.addEventListener("keydown", (event) => {
    if (event.key !== "Escape" || event.defaultPrevented) return;
    event.preventDefault();
    set(false, true);
  });
  // a button of the panel acts, then the menu closes (a picker's button opens its list instead)
  panel.addEventListener("click", (event) => {
    const b = event.target instanceof Element ? event.target.closest("button") : null;
    if (b && !b.hasAttribute("aria-haspopup") && panel.contains(b)) set(false, true);
  });
  bar.addEventListener("focusout", (event) => {
    if (event.relatedTarget instanceof Node && !bar.contains(event.relatedTarget)) set(false);
  });

  return {
    button,
    panel,
    /** Closes the menu. */
    close: () => set(false),
  };
}
