// The search box of the toolbar: the pattern (sent a moment after the last keystroke, so a
// partial pattern costs nothing), the regular-expression and case toggles, ◀ ▶ (and Enter,
// Shift+Enter) to step through the matches, "Show all" to open every match's ancestors, and the
// count beside them. It holds no state of its own: it shows the view's (`update`) and reports
// what the user asks for through `dispatch`.
import { append } from "../base/dom.js";

/** Milliseconds after the last keystroke that the pattern is searched for. */
export const TYPING_MS = 150;

/**
 * @param {HTMLElement} group the toolbar's search group
 * @param {import("../state/commands.js").Dispatch} dispatch what the user asks for
 * @param {(g: HTMLElement, text: string, label: string, onClick: () => void) => HTMLButtonElement} button
 */
export function createSearchBox(group, dispatch, button) {
  const win = /** @type {Window} */ (group.ownerDocument.defaultView);
  const input = /** @type {HTMLInputElement} */ (
    append(group, "input", {
      className: "cct-search",
      attrs: { type: "search", placeholder: "search names  ( / )", "aria-label": "Search node names" },
    })
  );
  /** @type {ReturnType<typeof setTimeout> | null} */
  let typing = null;
  /** Sends the pattern typed, if it waits. */
  const flush = () => {
    if (typing === null) return;
    win.clearTimeout(typing);
    typing = null;
    dispatch({ type: "search", pattern: input.value });
  };
  input.addEventListener("input", () => {
    if (typing !== null) win.clearTimeout(typing);
    typing = win.setTimeout(flush, TYPING_MS);
  });
  input.addEventListener("keydown", (event) => {
    if (event.key !== "Enter") return;
    event.preventDefault();
    flush();
    dispatch({ type: "match", step: event.shiftKey ? -1 : 1 });
  });
  /**
   * A button that flips a boolean of the view state.
   * @param {string} text @param {string} label @param {"searchRegex" | "searchCase"} key
   */
  const toggle = (text, label, key) => {
    const b = button(group, text, label, () => {
      flush();
      dispatch({ type: "set", state: { [key]: b.getAttribute("aria-pressed") !== "true" } });
    });
    b.setAttribute("aria-pressed", "false");
    return b;
  };
  const regexButton = toggle(".*", "Regular expression", "searchRegex");
  const caseButton = toggle("Aa", "Match case", "searchCase");
  /** @param {1 | -1} step */
  const stepper = (step) => () => {
    flush();
    dispatch({ type: "match", step });
  };
  button(group, "◀", "Previous match", stepper(-1));
  button(group, "▶", "Next match", stepper(1));
  const allButton = button(group, "all", "Show all matches", () => {
    flush();
    dispatch({ type: "showMatches" });
  });
  allButton.disabled = true;
  const info = append(group, "span", { className: "cct-search-info", attrs: { "aria-live": "polite" } });

  return {
    input,
    /** Shows the view state's search. @param {import("../../contract.js").ViewState} view */
    update(view) {
      regexButton.setAttribute("aria-pressed", String(view.searchRegex));
      caseButton.setAttribute("aria-pressed", String(view.searchCase));
      if (input.value !== view.search && group.ownerDocument.activeElement !== input && typing === null) {
        input.value = view.search;
      }
    },
    /** The search's outcome, or the message of an invalid pattern. @param {string} text @param {boolean} isError */
    setSearchInfo(text, isError) {
      info.textContent = text;
      info.classList.toggle("cct-error-text", isError);
    },
    /** "Show all" opens `opens` nodes; null: every match is drawn already. @param {number | null} opens */
    setShowAll(opens) {
      allButton.disabled = opens === null;
      const label =
        opens === null ? "Show all matches" : `Show all matches (opens ${opens.toLocaleString("en-US")} nodes)`;
      allButton.title = label;
      allButton.setAttribute("aria-label", label);
    },
    /** Stops waiting for more keystrokes. */
    destroy() {
      if (typing !== null) win.clearTimeout(typing);
      typing = null;
    },
  };
}
