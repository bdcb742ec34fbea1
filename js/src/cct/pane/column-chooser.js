// The table pane's column chooser (hpcviewer's): a "Columns" button in the pane's head opening a
// list of the profile's metrics, each with a checkbox; checking or unchecking one reports the
// columns wanted (w.table_metrics). The columns checked are those shown (Python's choice, or its
// default). Keyboard: Enter or Space opens it and moves to the first box, the arrows move
// between boxes, Escape closes it back to the button. Names are text, never markup.
import { append } from "../base/dom.js";

/**
 * @typedef {object} ChooserHandlers
 * @property {(names: string[]) => void} choose the user wants these columns, in this order
 */

/** @param {HTMLElement} head the pane's head @param {ChooserHandlers} handlers */
export function createColumnChooser(head, handlers) {
  const doc = head.ownerDocument;
  const element = append(head, "div", { className: "cct-pane-chooser" });
  const button = append(element, "button", {
    text: "Columns ▾",
    attrs: {
      type: "button",
      "aria-haspopup": "true",
      "aria-expanded": "false",
      title: "Choose the table's metric columns",
    },
  });
  const list = append(element, "div", {
    className: "cct-pane-chooser-list",
    attrs: { role: "group", "aria-label": "Metric columns of the table" },
  });
  list.hidden = true;
  /** @type {string[]} */
  let metrics = [];
  /** @type {string[]} */
  let chosen = [];

  const boxes = () => /** @type {HTMLInputElement[]} */ ([...list.querySelectorAll("input")]);

  function draw() {
    list.replaceChildren();
    if (!metrics.length) append(list, "div", { className: "cct-pane-chooser-none", text: "No metrics" });
    for (const name of metrics) {
      const label = append(list, "label", { className: "cct-pane-chooser-item" });
      const box = /** @type {HTMLInputElement} */ (append(label, "input", { attrs: { type: "checkbox" } }));
      box.checked = chosen.includes(name);
      // the last column stays (a table of no values says nothing); still focusable, so the
      // arrows keep moving through every box
      if (box.checked && chosen.length === 1) box.setAttribute("aria-disabled", "true");
      box.dataset.metric = name; // an attribute value, never markup
      append(label, "span", { text: name });
      box.addEventListener("change", () => {
        const next = box.checked ? [...chosen, name] : chosen.filter((n) => n !== name);
        if (!next.length) {
          box.checked = true;
          return;
        }
        chosen = next;
        draw();
        boxes()
          .find((b) => b.dataset.metric === name)
          ?.focus();
        handlers.choose(next);
      });
    }
  }

  /** @param {boolean} open */
  function setOpen(open) {
    list.hidden = !open;
    button.setAttribute("aria-expanded", String(open));
    if (open) boxes()[0]?.focus();
  }

  button.addEventListener("click", () => setOpen(list.hidden));
  list.addEventListener("keydown", (event) => {
    const all = boxes();
    const at = all.indexOf(/** @type {HTMLInputElement} */ (doc.activeElement));
    if (event.key === "Escape") {
      event.preventDefault();
      setOpen(false);
      button.focus();
    } else if ((event.key === "ArrowDown" || event.key === "ArrowUp") && all.length) {
      event.preventDefault();
      const step = event.key === "ArrowDown" ? 1 : -1;
      all[(Math.max(0, at) + step + all.length) % all.length].focus();
    }
  });
  // closes when the focus leaves it (a click elsewhere, Tab past the last box)
  element.addEventListener("focusout", (event) => {
    const to = /** @type {Node | null} */ (event.relatedTarget);
    if (to && !element.contains(to)) setOpen(false);
  });

  return {
    element,
    button,
    list,
    /**
     * The metrics the table may show, and the columns it shows now.
     * @param {string[]} names @param {string[]} shown
     */
    set(names, shown) {
      metrics = names.map(String);
      chosen = shown.filter((n) => metrics.includes(n));
      draw();
    },
    /** Whether the list is open. */
    get open() {
      return !list.hidden;
    },
    setOpen,
  };
}
