// The table pane's Changes tab: an ensemble's changes of level along its runs (Python's
// `changes` reply, Ensemble.regressions), one row each — the node's call path, where the new
// level starts, before → after, the change in % and its cause — the nodes' own changes first
// (an "inclusive only" change repeats, on an ancestor, the effect of a change below it), each
// group largest |effect| first. A click selects the node in the tree; "compare runs" opens the
// difference of the runs just before and just after the change. Changes are few (a handful per
// node that moved), so every row is in the page. Names are text, never HTML.
import { append } from "../base/dom.js";
import { formatValue } from "../base/format.js";
import { latestOnly } from "../base/latest.js";
import { displayText } from "../base/text.js";

/**
 * @typedef {object} Change one row of the `changes` reply
 * @property {number} node full-tree id (-1: not in the tree drawn)
 * @property {string[]} path call path from the root
 * @property {string} at where the new level starts (a launch date, a run)
 * @property {number | null} before
 * @property {number | null} after
 * @property {number | null} change after ÷ before − 1
 * @property {string} cause "exclusive", "inclusive only" or "unknown"
 * @property {string} [config] the configuration it was found in, in words ("" or absent: all runs)
 * @property {string[]} [environment] what else differs between the runs before and after it,
 *   best separator first ("compiler_version: 12 → 13")
 */
/** @typedef {{ metric: string, by: string, rows: Change[], caution?: string }} ChangesReply */
/** @typedef {Change & { index: number }} ChangeRow a change and its position in w.changes */
/**
 * @typedef {object} ChangesHandlers
 * @property {() => Promise<ChangesReply>} fetch Python's changes (found on first need)
 * @property {(node: number, add: boolean) => void} pick the user clicked a change: select its node
 * @property {(index: number) => void} compare the user asked to compare the runs around change `index`
 */

/**
 * The order of the tab: own changes first, then by |after − before|, largest first.
 * @param {Change[]} rows @returns {ChangeRow[]}
 */
export function changeOrder(rows) {
  const effect = (/** @type {Change} */ r) => Math.abs((r.after ?? 0) - (r.before ?? 0));
  return rows
    .map((r, index) => ({ ...r, index }))
    .sort((a, b) => Number(a.cause !== "exclusive") - Number(b.cause !== "exclusive") || effect(b) - effect(a));
}

/** A change in % with its sign. @param {number | null} change */
export const percent = (change) =>
  change === null ? "–" : `${change > 0 ? "+" : change < 0 ? "−" : ""}${Math.abs(100 * change).toFixed(1)} %`;

/** @param {HTMLElement} parent @param {ChangesHandlers} handlers */
export function createChangesList(parent, handlers) {
  const element = append(parent, "div", {
    className: "cct-changes",
    attrs: { role: "table", "aria-label": "Changes of level along the runs" },
  });
  element.hidden = true;
  const note = append(element, "div", { className: "cct-pane-note" });
  const list = append(element, "div", { className: "cct-changes-rows", attrs: { role: "rowgroup" } });
  /** @type {ChangeRow[]} */
  let rows = [];
  /** @type {Set<number>} */
  let selected = new Set();
  const latest = latestOnly();

  /** @param {ChangeRow} r */
  function rowElement(r) {
    const el = append(list, "div", {
      className: `cct-change-row${selected.has(r.node) ? " cct-row-selected" : ""}`,
      attrs: { role: "row", "data-node": String(r.node), "data-index": String(r.index), tabindex: "-1" },
    });
    const where = append(el, "div", { className: "cct-change-where", attrs: { role: "cell" } });
    const name = r.path.at(-1) ?? "";
    append(where, "span", { className: "cct-pane-name", text: displayText(name) });
    // callers nearest first: a path cut to its room keeps the caller, not the root
    const callers = r.path.slice(0, -1).reverse();
    append(where, "span", {
      className: "cct-change-path",
      text: callers.length ? `in ${displayText(callers.join(" ‹ "))}` : "",
      attrs: { title: displayText(r.path.join(" › ")) },
    });
    const up = (r.change ?? 0) > 0;
    append(el, "div", {
      className: `cct-pane-num cct-change-pct ${up ? "cct-change-up" : "cct-change-down"}`,
      text: percent(r.change),
      attrs: { role: "cell" },
    });
    const facts = append(el, "div", { className: "cct-change-facts", attrs: { role: "cell" } });
    const own =
      r.cause === "exclusive" ? "own change" : r.cause === "inclusive only" ? "in its callees" : "cause unknown";
    const values = `${formatValue(r.before ?? Number.NaN)} → ${formatValue(r.after ?? Number.NaN)}`;
    const config = r.config ? ` in ${displayText(r.config)}` : "";
    facts.textContent = `from ${displayText(r.at)}${config} · ${values} · ${own}`;
    const environment = r.environment ?? [];
    if (environment.length) {
      // what else changed with it: the best separator shown, all of them on hover
      append(facts, "div", {
        className: "cct-change-since",
        text: `with ${displayText(environment[0])}`,
        attrs: { title: environment.map(displayText).join("\n") },
      });
    }
    const button = append(el, "button", {
      className: "cct-change-compare",
      text: "compare runs",
      attrs: { type: "button", "aria-label": `Compare the runs around the change of ${displayText(name)}` },
    });
    button.addEventListener("click", (event) => {
      event.stopPropagation();
      handlers.compare(r.index);
    });
    el.addEventListener("click", (event) => {
      if (r.node < 0) return;
      handlers.pick(r.node, event.shiftKey || event.metaKey || event.ctrlKey);
      selected = new Set([r.node]);
      mark();
    });
    return el;
  }

  function mark() {
    for (const el of /** @type {HTMLElement[]} */ ([...list.children])) {
      el.classList.toggle("cct-row-selected", selected.has(Number(el.dataset.node)));
    }
  }

  return {
    element,
    /** The rows shown, in order. */
    get rows() {
      return rows;
    },
    /** Shows or hides the list. @param {boolean} on */
    show(on) {
      element.hidden = !on;
    },
    /** Asks Python for the changes (it finds them the first time: this can take seconds). */
    async load() {
      list.replaceChildren();
      note.textContent = "Finding changes…";
      await latest.run(
        () => handlers.fetch(),
        (reply) => {
          rows = changeOrder(reply.rows);
          const of = `of ${displayText(reply.metric)} by ${displayText(reply.by)}`;
          const found = rows.length
            ? `${rows.length} change(s) ${of}: own changes first, then the largest in ${displayText(reply.metric)}`
            : `No change ${of} (5 % or more)`;
          // runs of several configurations: each change is of one (said, not hidden)
          note.textContent = reply.caution ? `${found}. Note: ${reply.caution}.` : found;
          list.replaceChildren();
          for (const r of rows) rowElement(r);
        },
        (error) => {
          note.textContent = error instanceof Error ? error.message : String(error);
        },
      );
    },
    /** The tree's selection: its changes are marked. @param {number[]} ids */
    setSelection(ids) {
      selected = new Set(ids);
      mark();
    },
    destroy() {
      latest.cancel();
      element.remove();
    },
  };
}
