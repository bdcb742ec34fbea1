// A compact picker of the toolbar: a button showing the choice ("colour ▾ time (exc)", the full
// name in its tooltip) that opens a list of every choice, full names, with a box that narrows the
// list as one types. The keyboard works it as a combo box: Enter, Space or ↓ open it; ↑ ↓
// move through the list; Enter chooses; Escape closes it and gives the focus back to the
// button. It holds the choice shown; `onChoose` hears what the user picks.
import { append } from "../base/dom.js";

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
      className: "cct-pick",
      attrs: { type: "button", "aria-haspopup": "listbox", "aria-expanded": "false", "data-picker": label },
    })
  );
  append(button, "span", { className: "cct-pick-label", text: label });
  const shown = append(button, "span", { className: "cct-pick-value" });
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
    if (at) {
      filter.setAttribute("aria-activedescendant", at.el.id);
      at.el.scrollIntoView?.({ block: "nearest" });
    } else filter.removeAttribute("aria-activedescendant");
  };
  const isOpen = () => !pop.hidden;
  /** @param {boolean} [refocus] the focus goes back to the button */
  const close = (refocus = false) => {
    if (!isOpen()) return;
    pop.hidden = true;
    button.setAttribute("aria-expanded", "false");
    if (refocus) button.focus();
  };
  const open = () => {
    pop.hidden = false;
    button.setAttribute("aria-expanded", "true");
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
    close(true);
    if (v !== value) onChoose(v);
  };

  button.addEventListener("click", () => (isOpen() ? close() : open()));
  button.addEventListener("keydown", (event) => {
    if (event.key !== "ArrowDown" || isOpen()) return;
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
    } else if (event.key === "Escape") close(true);
    else return;
    event.preventDefault();
  });
  // a click on an item, not a focus change, chooses it
  list.addEventListener("mousedown", (event) => event.preventDefault());
  list.addEventListener("click", (event) => {
    const el = event.target instanceof Element ? event.target.closest("[role=option]") : null;
    const at = items.find((i) => i.el === el);
    if (at) choose(at.value);
  });
  // the focus or a click going elsewhere closes the list
  wrap.addEventListener("focusout", (event) => {
    if (!(event.relatedTarget instanceof Node && wrap.contains(event.relatedTarget))) close();
  });

  /** Shows the choice `v`. @param {string} v */
  const show = (v) => {
    value = v;
    const at = items.find((i) => i.value === v);
    const text = at ? at.text : v;
    shown.textContent = text;
    button.title = `${label}: ${text}`;
    button.setAttribute("aria-label", `${label}: ${text}`);
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
    get value() {
      return value;
    },
    set value(v) {
      show(v);
    },
  };
}
