// What the toolbar's pop-up panels (the metric pickers' lists, the "⋯" menu) share: a button
// opens the panel and says so (aria-expanded); Escape in the panel closes it and gives the
// focus back to the button; the focus going anywhere outside `scope` closes it.

/**
 * @param {HTMLElement} button
 * @param {HTMLElement} panel
 * @param {HTMLElement} scope the button, the panel and what belongs with them
 * @returns {(open: boolean, refocus?: boolean) => void} opens or closes the panel
 */
export function popover(button, panel, scope) {
  /** @param {boolean} open @param {boolean} [refocus] the focus goes back to the button */
  const set = (open, refocus = false) => {
    panel.hidden = !open;
    button.setAttribute("aria-expanded", String(open));
    if (refocus) button.focus();
  };
  panel.addEventListener("keydown", (event) => {
    if (event.key !== "Escape" || event.defaultPrevented) return;
    event.preventDefault();
    set(false, true);
  });
  scope.addEventListener("focusout", (event) => {
    if (!panel.hidden && !(event.relatedTarget instanceof Node && scope.contains(event.relatedTarget))) set(false);
  });
  return set;
}
