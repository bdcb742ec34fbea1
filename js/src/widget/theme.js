// The host's theme outside JupyterLab. JupyterLab and Notebook 7 define the --jp-* colours the
// view's styles use; other hosts do not, and the styles fall back to light colours. Where the
// host says it is dark (marimo's and most sites' "dark" class or data-theme on <html>/<body>,
// else the browser's prefers-color-scheme), the view is marked data-cct-theme="dark" and
// widget.css defines dark --jp-* colours inside it. A live switch (JupyterLab's theme menu, a
// host's toggle, the system's setting) is reported so that the canvas is painted again.

/** Whether the page says so: a class or a data-theme / data-mode attribute on <html> or <body>. */
const SAID = ["dark", "light"];

/**
 * "jupyter" when the host defines JupyterLab's theme colours, else "dark" or "light".
 * @param {Document} doc
 * @returns {"jupyter" | "dark" | "light"}
 */
export function hostTheme(doc) {
  const win = doc.defaultView;
  const body = doc.body ?? doc.documentElement;
  if (win?.getComputedStyle(body).getPropertyValue("--jp-layout-color0").trim()) return "jupyter";
  for (const el of [doc.documentElement, doc.body]) {
    if (!el) continue;
    for (const word of SAID) {
      if (el.classList.contains(word) || el.dataset.theme === word || el.dataset.mode === word) {
        return /** @type {"dark" | "light"} */ (word);
      }
    }
  }
  return win?.matchMedia?.("(prefers-color-scheme: dark)").matches ? "dark" : "light";
}

/**
 * Marks `el` with the host's theme now and whenever it changes; `changed()` runs after a change.
 * @param {HTMLElement} el @param {() => void} changed
 * @returns {() => void} stops watching
 */
export function watchTheme(el, changed) {
  const doc = el.ownerDocument;
  const win = doc.defaultView;
  let current = "";
  const apply = () => {
    const theme = hostTheme(doc);
    if (theme === "dark") el.dataset.cctTheme = "dark";
    else delete el.dataset.cctTheme;
    const was = current;
    current = theme;
    if (was && was !== theme) changed();
  };
  apply();
  // JupyterLab switches themes by swapping style sheets and body attributes: any change of
  // <html>/<body> attributes or of <head> is a possible switch (cheap to check)
  const observer = typeof MutationObserver === "undefined" ? null : new MutationObserver(apply);
  for (const target of [doc.documentElement, doc.body]) {
    if (target)
      observer?.observe(target, {
        attributes: true,
        attributeFilter: ["class", "style", "data-theme", "data-mode", "data-jp-theme-light", "data-jp-theme-name"],
      });
  }
  if (doc.head) observer?.observe(doc.head, { childList: true });
  const media = win?.matchMedia?.("(prefers-color-scheme: dark)");
  media?.addEventListener?.("change", apply);
  return () => {
    observer?.disconnect();
    media?.removeEventListener?.("change", apply);
  };
}
