// The chrome around the drawing: the header (breadcrumb of the focus path, status line, the note
// of folds to fit), the stage the tree is drawn in, the tooltip's box, the screen-reader
// announcer and the pinned spread. It shows what it is given; it holds no view state.
import { append } from "../base/dom.js";
import { elidePath } from "../base/elide-path.js";
import { shortenName } from "../picture/label-text.js";
import { createTooltip } from "./tooltip/tooltip.js";

/** Crumbs of a long focus path shown after its root (the focused node and its nearest
 * ancestors); the ones between are listed in the "…" menu. */
const CRUMBS = 3;

/** @typedef {{ id: import("../data/ids.js").NodeId, name: string }} Crumb */

/**
 * @param {HTMLElement} root the renderer's element (the toolbar, if any, is already in it)
 */
export function createChrome(root) {
  const header = append(root, "div", { className: "cct-header" });
  const breadcrumb = append(header, "nav", { className: "cct-breadcrumb", attrs: { "aria-label": "Focus path" } });
  /** The ancestors a long focus path leaves out, as a menu: choosing one focuses it.
   * @param {Crumb[]} left @param {(id: import("../data/ids.js").NodeId | null) => void} pick */
  const elided = (left, pick) => {
    const doc = root.ownerDocument;
    const menu = /** @type {HTMLSelectElement} */ (
      append(breadcrumb, "select", {
        className: "cct-crumb-more",
        attrs: { "aria-label": `Focus on one of ${left.length} more ancestors`, title: "More ancestors" },
      })
    );
    const head = doc.createElement("option");
    head.value = "";
    head.textContent = "…";
    head.disabled = true;
    head.selected = true;
    menu.append(head);
    for (const { id, name } of left) {
      const option = doc.createElement("option");
      option.value = String(id);
      option.textContent = shortenName(name, 48); // names are text, never markup
      menu.append(option);
    }
    menu.addEventListener("change", () => {
      const chosen = left.find((c) => String(c.id) === menu.value);
      menu.value = "";
      if (chosen) pick(chosen.id);
    });
  };
  const status = append(header, "span", { className: "cct-status" });
  const fitNote = append(header, "span", { className: "cct-fit-note" });
  fitNote.hidden = true;
  const stage = append(root, "div", {
    className: "cct-stage",
    attrs: { tabindex: "0", role: "tree", "aria-label": "Calling context tree; arrow keys move, Enter collapses" },
  });
  const surface = append(stage, "div", { className: "cct-surface" });
  // in the whole widget's box, not the stage's: a tall tooltip (a series) may cover the toolbar
  const tooltip = createTooltip(root);
  const announcer = append(stage, "div", { className: "cct-sr-only", attrs: { "aria-live": "polite" } });
  // the selected node's spread over its ranks, pinned in a corner of the stage
  const pinned = append(stage, "div", { className: "cct-pinned", attrs: { "aria-live": "polite" } });
  pinned.hidden = true;

  /** Where a pointer event is, relative to the stage. @param {MouseEvent} event */
  const onStage = (event) => {
    const box = stage.getBoundingClientRect();
    return { x: event.clientX - box.left, y: event.clientY - box.top };
  };

  return {
    stage,
    /** the element the backends draw into */
    surface,
    onStage,
    /** the tooltip box (tooltip.js) */
    tooltip,
    /** the pinned spread's box (placed by pin-place.js) */
    pinned,

    /** @param {{ text: string, title: string }} line */
    setStatus({ text, title }) {
      status.textContent = text;
      // the whole line first: a narrow cell cuts it at its end ("kinds: …" comes last)
      status.title = [text.split(" · ").join("\n"), title].filter(Boolean).join("\n\n");
    },

    /**
     * Says how many small subtrees were folded to fit, with a button that expands everything.
     * @param {number} count 0 hides the note
     * @param {() => void} expandAll
     */
    setFitNote(count, expandAll) {
      fitNote.replaceChildren();
      fitNote.hidden = count === 0;
      if (!count) return;
      append(fitNote, "span", {
        text: `${count.toLocaleString("en-US")} small subtree${count === 1 ? "" : "s"} folded to fit · `,
      });
      const b = append(fitNote, "button", { className: "cct-crumb", text: "Expand all", attrs: { type: "button" } });
      b.addEventListener("click", expandAll);
    },

    /**
     * The focus path as buttons ("All" first); `pick(id)` focuses there (null: everything). A
     * path deeper than the header has room for shows its root and its nearest ancestors, and
     * lists the ones between in a menu ("…"): each ancestor stays one choice away.
     * @param {{ id: import("../data/ids.js").NodeId, name: string }[] | null} path null: nothing is focused
     * @param {(id: import("../data/ids.js").NodeId | null) => void} pick
     */
    setBreadcrumb(path, pick) {
      breadcrumb.replaceChildren();
      if (!path) return;
      /** @param {string} text @param {import("../data/ids.js").NodeId | null} id */
      const crumb = (text, id) => {
        const b = append(breadcrumb, "button", { className: "cct-crumb", text, attrs: { type: "button" } });
        b.addEventListener("click", () => pick(id));
      };
      crumb("All", null);
      const { shown, left } = elidePath(path, CRUMBS);
      for (const step of shown) {
        append(breadcrumb, "span", { text: "›", attrs: { "aria-hidden": "true" } });
        if (step) crumb(shortenName(step.name, 24), step.id);
        else elided(left, pick);
      }
    },
    /** @param {string} text read out by screen readers */
    announce(text) {
      announcer.textContent = text;
    },

    /**
     * Pins `content` (a selected node's spread) under its `name`; null unpins.
     * @param {string | null} name @param {HTMLElement | null} content
     */
    setPinned(name, content) {
      pinned.replaceChildren();
      pinned.hidden = !content;
      if (!content || name === null) return;
      append(pinned, "div", { className: "cct-tooltip-name", text: name });
      pinned.append(content);
    },
  };
}
