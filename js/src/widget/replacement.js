// JupyterLab renders an output again when its data change: the new view takes the old one's
// place without the old view being removed. A view whose
// element left its parent is gone for good (a cell scrolled out of the window moves with its
// parent), so it stops; the zoom its user set carries over to the view that replaces it.

/** Zoom of views that were replaced, for the view that replaces them; keyed by the model's
 * payload, the one object all views of a model share. */
const replacedZoom = new WeakMap();

/**
 * Calls `removed` once `el` has left the parent it has now.
 * @param {HTMLElement} el
 * @param {() => void} removed
 * @returns {() => void} stops watching
 */
export function watchRemoval(el, removed) {
  const parent = el.parentNode;
  if (!parent || typeof MutationObserver === "undefined") return () => {};
  const observer = new MutationObserver(() => {
    if (el.parentNode === parent) return;
    observer.disconnect();
    removed();
  });
  observer.observe(parent, { childList: true });
  return () => observer.disconnect();
}

/**
 * A view of `payload` was replaced: the next view of it starts at `zoom` (null: fitted; only a
 * zoom the user set carries over, a fitted view fits again).
 * @param {unknown} payload
 * @param {import("./model.js").Transform | null} zoom
 */
export function rememberZoom(payload, zoom) {
  if (typeof payload !== "object" || payload === null) return;
  if (zoom) replacedZoom.set(payload, { ...zoom });
  else replacedZoom.delete(payload);
}

/**
 * The zoom of the view of `payload` that was replaced, if the user had set one.
 * @param {unknown} payload
 * @returns {import("./model.js").Transform | null}
 */
export function replacedZoomOf(payload) {
  if (typeof payload !== "object" || payload === null) return null;
  return replacedZoom.get(payload) ?? null;
}
