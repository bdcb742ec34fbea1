// The thin widget layer: binds the Jupyter-agnostic renderer to the anywidget model.
import { createRenderer } from "./cct/renderer.js";
import { decodeTable } from "./cct/decode.js";

/** The traits of cctviz.CCT that the front end reads or writes (see cctviz/widget/cct.py). */
const OPTION_TRAITS = { color_by: "colorBy", size_by: "sizeBy", color_scale: "colorScale" };

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

  const onData = () => {
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

  renderer.setOptions(options());
  onData();
  onSelection();
  model.on("change:_payload", onData);
  for (const trait of Object.keys(OPTION_TRAITS)) model.on(`change:${trait}`, onOptions);
  model.on("change:selection", onSelection);
  model.on("change:height", onHeight);

  let frame = 0;
  const onResize = () => {
    cancelAnimationFrame(frame);
    frame = requestAnimationFrame(() => renderer.resize(el.clientWidth, model.get("height") - 32));
  };
  const observer = typeof ResizeObserver === "undefined" ? null : new ResizeObserver(onResize);
  observer?.observe(el);

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
