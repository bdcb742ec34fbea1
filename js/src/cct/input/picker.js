// A compact picker of the toolbar: a button showing the choice ("colour ▾ time (exc)", the full
// name in its tooltip) that opens a list of every choice, full names, with a box that narrows the
// list as one types. The keyboard works it as a combo box: Enter, Space or ↓ open it; ↑ ↓
// move through the list; Enter chooses; Escape closes it and gives the focus back to the
// button. It holds the choice shown; `onChoose` hears what the user picks.
import { append } from "../base/dom.js";
import { popover } from "./popover.js";

let pickers = 0;

/**
 * @param {HTMLElement} parent
 * @param {string} label what is picked ("colour"): the button's name and the list's
 * @param {(value: string) => void} onChoose
 */
export function createPicker(parent, label, onChoose) {
  const id = `cct-pick-${++pickers}`;
  const wrap = append(parent, "span", { className: "cct-picker" });
  const button = /** @type {HTMLButtonElement} */ (
    append(wrap, "button", {
      attrs: { type: "button", "aria-haspopup": "listbox", "aria-expanded": "false", "data-picker": label },
    })
  );
  append(button, "span", { text: label });
  const shown = append(button, "span"); // the choice (styled as [data-picker] > :last-child)
  const pop = append(wrap, "div", { className: "cct-pop", attrs: { hidden: "" } });
  const filter = /** @type {HTMLInputElement} */ (
    append(pop, "input", {
      attrs: {
        type: "search",
        placeholder: "filter",
        role: "combobox",
        "aria-label": `Find a ${label} metric`,
        "aria-controls": id,
      },
    })
  );
  const list = append(pop, "ul", { className: "cct-pick-list", attrs: { id, role: "listbox", "aria-label": label } });
  /** @type {{ value: string, text: string, el: HTMLElement }[]} */
  let items = [];
  let value = "";
  /** @type {number} the highlighted item among those shown (-1: none) */
  let active = -1;
  const visible = () => items.filter((i) => !i.el.hidden);

  /** Highlights the `k`-th visible item. @param {number} k */
  const highlight = (k) => {
    const seen = visible();
    active = seen.length ? Math.max(0, Math.min(seen.length - 1, k)) : -1;
    for (const i of items) i.el.classList.toggle("cct-active", i === seen[active]);
    const at = seen[active];
    filter.setAttribute("aria-activedescendant", at ? at.el.id : "");
    at?.el.scrollIntoView?.({ block: "nearest" });
  };
  const set = popover(button, pop, wrap);
  const open = () => {
    set(true);
    filter.value = "";
    narrow();
    highlight(visible().findIndex((i) => i.value === value));
    filter.focus();
  };
  /** Shows the items whose name holds what is typed, in any case. */
  const narrow = () => {
    const words = filter.value.toLowerCase().split(/\s+/).filter(Boolean);
    for (const i of items) i.el.hidden = !words.every((w) => i.text.toLowerCase().includes(w));
    highlight(0);
  };
  /** @param {string} v */
  const choose = (v) => {
    set(false, true);
    if (v !== value) onChoose(v);
  };

  button.addEventListener("click", () => (pop.hidden ? open() : set(false)));
  button.addEventListener("keydown", (event) => {
    if (event.key !== "ArrowDown" || !pop.hidden) return;
    event.preventDefault();
    open();
  });
  filter.addEventListener("input", narrow);
  filter.addEventListener("keydown", (event) => {
    const step = /** @type {Record<string, number>} */ ({ ArrowDown: 1, ArrowUp: -1 })[event.key];
    if (step) highlight(active + step);
    else if (event.key === "Enter") {
      const at = visible()[active];
      if (at) choose(at.value);
    } else return;
    event.preventDefault();
  });
  // a click on an item, not a focus change, chooses it
  list.addEventListener("mousedown", (event) => event.preventDefault());
  list.addEventListener("click", (event) => {
    const el = event.target instanceof Element ? event.target.closest("[role=option]") : null;
    const at = items.find((i) => i.el === el);
    if (at) choose(at.value);
  });

  /** Shows the choice `v`. @param {string} v */
  const show = (v) => {
    value = v;
    const at = items.find((i) => i.value === v);
    const text = at ? at.text : v;
    shown.textContent = text;
    button.title = `${label}: ${text}`;
    button.setAttribute("aria-label", button.title);
    button.dataset.value = v;
    for (const i of items) i.el.setAttribute("aria-selected", String(i === at));
  };

  return {
    button,
    /** The choices: values, and the names shown (full). @param {string[]} values @param {string[]} [texts] */
    setOptions(values, texts = values) {
      list.replaceChildren();
      items = values.map((v, k) => {
        const el = append(list, "li", {
          text: texts[k],
          attrs: { id: `${id}-${k}`, role: "option", "data-value": v },
        });
        return { value: v, text: texts[k], el };
      });
      show(value);
    },
    show,
  };
}
