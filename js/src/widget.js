// The thin widget layer: binds the Jupyter-agnostic renderer to the anywidget model.
import { decodeTable } from "./cct/decode.js";
import { createRenderer } from "./cct/renderer.js";

/** Traits of cctviz.CCT (see cctviz/widget/cct.py) ⇄ keys of the renderer's view state. */
const STATE_TRAITS = {
  color_by: "colorBy",
  size_by: "sizeBy",
  color_scale: "colorScale",
  backend: "backend",
  palette: "palette",
  legend: "legend",
  collapsed: "collapsed",
  prune_range: "prune",
  focused: "focus",
  visible_roots: "roots",
  search: "search",
  search_regex: "searchRegex",
  search_case: "searchCase",
  highlighted: "highlighted",
};
const TRAIT_OF = Object.fromEntries(Object.entries(STATE_TRAITS).map(([t, k]) => [k, t]));

/** @param {{ model: any, el: HTMLElement }} context */
function render({ model, el }) {
  el.classList.add("cctviz");
  const renderer = createRenderer(el, {
    width: el.clientWidth || 800,
    height: model.get("height") - 90, // a first guess: start() sizes it to the stage
    onSelect(ids) {
      model.set("selection", ids);
      model.save_changes();
    },
    onChange(state) {
      for (const [key, value] of Object.entries(state)) model.set(TRAIT_OF[key], value);
      model.save_changes();
    },
  });
  // The height goes on our own element: ipywidgets' layout view may reset the style of `el`.
  const setHeight = () => {
    renderer.element.style.height = `${model.get("height")}px`;
  };
  setHeight();
  // a handle for tests and debugging in the browser console: el.cctRenderer.screenPosition(id)
  Object.defineProperty(el, "cctRenderer", { value: renderer, configurable: true });

  const traitState = (traits) => Object.fromEntries(traits.map((t) => [STATE_TRAITS[t], model.get(t) ?? null]));
  const showError = (error) => {
    const box = el.ownerDocument.createElement("div");
    box.className = "cct-error";
    box.textContent = `cctviz could not draw this profile: ${error.message}`;
    el.replaceChildren(box);
  };

  let started = false;
  const onData = () => {
    if (!started) return;
    try {
      renderer.setData(decodeTable(model.get("_payload")), traitState(Object.keys(STATE_TRAITS)));
    } catch (error) {
      showError(error);
    }
  };
  // one listener per trait (anywidget's model contract has "change:<name>" events only)
  const stateListeners = Object.keys(STATE_TRAITS).map((trait) => [
    `change:${trait}`,
    () => renderer.setState(traitState([trait])),
  ]);
  const onSelection = () => {
    const ids = model.get("selection") ?? [];
    const current = renderer.selection;
    if (ids.length !== current.length || ids.some((id, i) => id !== current[i])) {
      renderer.setSelection(ids);
    }
  };
  // the drawing fills the stage, below the toolbar (which wraps on narrow cells)
  const stageSize = () => [renderer.stage.clientWidth, renderer.stage.clientHeight];
  const onHeight = setHeight;

  renderer.setState(traitState(Object.keys(STATE_TRAITS)));
  // Draw once the cell has its real width (the element is often not in the page yet when
  // render runs); drawing at a guessed width would lay out and draw everything twice.
  const start = () => {
    if (started) return;
    started = true;
    renderer.resize(...stageSize());
    onData();
    onSelection();
  };
  model.on("change:_payload", onData);
  for (const [event, listener] of stateListeners) model.on(event, listener);
  model.on("change:selection", onSelection);
  model.on("change:height", onHeight);

  let frame = 0;
  const onResize = () => {
    if (!started) {
      if (renderer.stage.clientWidth > 0) start();
      return;
    }
    cancelAnimationFrame(frame);
    frame = requestAnimationFrame(() => renderer.resize(...stageSize()));
  };
  const observer = typeof ResizeObserver === "undefined" ? null : new ResizeObserver(onResize);
  observer?.observe(renderer.stage);
  if (!observer || renderer.stage.clientWidth > 0) start();

  return () => {
    observer?.disconnect();
    cancelAnimationFrame(frame);
    model.off("change:_payload", onData);
    for (const [event, listener] of stateListeners) model.off(event, listener);
    model.off("change:selection", onSelection);
    model.off("change:height", onHeight);
    renderer.destroy();
  };
}

export default { render };
