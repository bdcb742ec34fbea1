// The thin widget layer: binds the Jupyter-agnostic renderer to the anywidget model.
import { createRenderer } from "./cct/renderer.js";
import { decodeTable } from "./cct/decode.js";

/** The traits of cctviz.CCT that the front end reads or writes (see cctviz/widget/cct.py). */
const OPTION_TRAITS = {
  color_by: "colorBy",
  size_by: "sizeBy",
  color_scale: "colorScale",
  backend: "backend",
};

/** @param {{ model: any, el: HTMLElement }} context */
function render({ model, el }) {
  el.classList.add("cctviz");
  el.style.height = `${model.get("height")}px`;
  const renderer = createRenderer(el, {
    width: el.clientWidth || 800,
    height: model.get("height") - 32,
    onSelect(ids) {
      model.set("selection", ids);
      model.save_changes();
    },
  });

  const options = () =>
    Object.fromEntries(Object.entries(OPTION_TRAITS).map(([trait, key]) => [key, model.get(trait)]));
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
      renderer.setData(decodeTable(model.get("_payload")));
    } catch (error) {
      showError(error);
    }
  };
  const onOptions = () => renderer.setOptions(options());
  const onSelection = () => {
    const ids = model.get("selection") ?? [];
    const current = renderer.selection;
    if (ids.length !== current.length || ids.some((id, i) => id !== current[i])) {
      renderer.setSelection(ids);
    }
  };
  const onHeight = () => {
    el.style.height = `${model.get("height")}px`;
    renderer.resize(el.clientWidth, model.get("height") - 32);
  };

  // a handle for tests and debugging in the browser console: el.cctRenderer.screenPosition(id)
  Object.defineProperty(el, "cctRenderer", { value: renderer, configurable: true });
  renderer.setOptions(options());
  // Draw once the cell has its real width (the element is often not in the page yet when
  // render runs); drawing at a guessed width would lay out and draw everything twice.
  const start = () => {
    if (started) return;
    started = true;
    renderer.resize(el.clientWidth || 800, model.get("height") - 32);
    onData();
    onSelection();
  };
  model.on("change:_payload", onData);
  for (const trait of Object.keys(OPTION_TRAITS)) model.on(`change:${trait}`, onOptions);
  model.on("change:selection", onSelection);
  model.on("change:height", onHeight);

  let frame = 0;
  const onResize = () => {
    if (!started) {
      if (el.clientWidth > 0) start();
      return;
    }
    cancelAnimationFrame(frame);
    frame = requestAnimationFrame(() => renderer.resize(el.clientWidth, model.get("height") - 32));
  };
  const observer = typeof ResizeObserver === "undefined" ? null : new ResizeObserver(onResize);
  observer?.observe(el);
  if (!observer || el.clientWidth > 0) start();

  return () => {
    observer?.disconnect();
    cancelAnimationFrame(frame);
    model.off("change:_payload", onData);
    for (const trait of Object.keys(OPTION_TRAITS)) model.off(`change:${trait}`, onOptions);
    model.off("change:selection", onSelection);
    model.off("change:height", onHeight);
    renderer.destroy();
  };
}

export default { render };
