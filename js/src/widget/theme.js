// The host's theme outside JupyterLab. JupyterLab and Notebook 7 define the --jp-* colours the
// view's styles use (Colab defines them too, light ones even in its dark mode: there the real
// background behind the view decides); other hosts do not, and the styles fall back to light
// colours. Where the
// host says it is dark (marimo's and most sites' "dark" class or data-theme on <html>/<body>,
// else the browser's prefers-color-scheme), the view is marked data-cct-theme="dark" and
// widget/widget.css defines dark --jp-* colours inside it. A live switch (JupyterLab's theme menu, a
// host's toggle, the system's setting) is reported so that the canvas is painted again.

/** Whether the page says so: a class or a data-theme / data-mode attribute on <html> or <body>. */
const SAID = ["dark", "light"];

/**
 * "jupyter" when the host defines JupyterLab's theme colours (and the background behind `el`
 * agrees), else "dark" or "light".
 * @param {Document} doc
 * @param {Element | null} [el] the view, whose background is checked
 * @returns {"jupyter" | "dark" | "light"}
 */
export function hostTheme(doc, el = null) {
  const win = doc.defaultView;
  const body = doc.body ?? doc.documentElement;
  const layout = win?.getComputedStyle(body).getPropertyValue("--jp-layout-color0").trim();
  if (layout) {
    // Colab defines JupyterLab's colours as light ones in its dark mode too: what is really
    // behind the view decides (a dark background under light --jp-* colours: dark)
    const lightColours = win && !dark(luma(win, body, layout));
    return el && win && lightColours && dark(backgroundBehind(win, el)) ? "dark" : "jupyter";
  }
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

/** @param {number | null} l a luma (0–255), null: none */
const dark = (l) => l !== null && l < 128;

/**
 * The luma (0–255) of a computed colour "rgb(r, g, b)" / "rgba(...)"; null when it is
 * transparent or not one.
 * @param {string} colour
 */
function lumaOf(colour) {
  const m = colour.match(/rgba?\(([^)]+)\)/);
  if (!m) return null;
  const [r, g, b, a = 1] = m[1]
    .split(/[ ,/]+/)
    .filter(Boolean)
    .map(Number);
  return a === 0 ? null : 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/**
 * The luma of a CSS colour as `parent` would compute it.
 * @param {Window} win @param {Element} parent @param {string} value
 */
function luma(win, parent, value) {
  const probe = parent.ownerDocument.createElement("span");
  probe.style.color = value;
  parent.appendChild(probe);
  const computed = win.getComputedStyle(probe).color;
  probe.remove();
  return lumaOf(computed);
}

/**
 * The luma of the first background that is not transparent behind `el` (itself, then its
 * ancestors); null: none.
 * @param {Window} win @param {Element} el
 */
function backgroundBehind(win, el) {
  for (let node = /** @type {Element | null} */ (el); node; node = node.parentElement) {
    const l = lumaOf(win.getComputedStyle(node).backgroundColor);
    if (l !== null) return l;
  }
  return null;
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
    const theme = hostTheme(doc, el);
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
