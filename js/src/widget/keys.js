// Keys typed in the view are the view's. Lumino (JupyterLab, Notebook 7) matches no shortcut
// from an element marked so upwards, so "d d" no longer deletes the cell and the arrows move the
// tree's cursor, not the active cell; Lumino tests the focused element itself first (the
// notebook's selectors end in ":focus"), so each element that takes the focus is marked as it
// does. Hosts without Lumino (VS Code's webview, Colab) see the same keys bubble up as their
// shortcuts: they stop at the view, but for those that leave it (Tab, and the Escape that found
// nothing left to clear, which has already moved the focus out).

/** Lumino's mark of elements whose keys are not shortcuts. */
const SUPPRESS = "data-lm-suppress-shortcuts";

/**
 * Keeps the keys typed in `el` (the view's root) in it; returns what lets them go.
 * @param {HTMLElement} el
 * @returns {() => void}
 */
export function keepKeys(el) {
  el.setAttribute(SUPPRESS, "true");
  /** @param {FocusEvent} event */
  const markFocused = (event) => {
    if (event.target instanceof Element) event.target.setAttribute(SUPPRESS, "true");
  };
  /** @param {KeyboardEvent} event */
  const stop = (event) => {
    if (event.key === "Tab") return;
    if (event.key === "Escape" && !el.contains(el.ownerDocument.activeElement)) return;
    event.stopPropagation();
  };
  el.addEventListener("focusin", markFocused);
  el.addEventListener("keydown", stop);
  return () => {
    el.removeEventListener("focusin", markFocused);
    el.removeEventListener("keydown", stop);
  };
}
