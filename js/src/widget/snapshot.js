// The view's static picture for the notebook: a PNG of what is on screen, drawn again once the
// view has not changed for a moment, and sent to Python in a `snapshot` message. Python puts it
// in the output that GitHub, nbviewer and nbconvert show where the view cannot run
// (cctviz/widget/static_picture.py): through the kernel, with the Jupyter protocol's display
// updates, so no front end's internals are needed. The element gets `data-cct-snapshot` (a time
// stamp) whenever a new image is sent: end-to-end tests wait for it. The image is made from the
// view's own drawing (`picture`: no layout again, the labels where they are on screen); where the
// renderer cannot make one, a figure is drawn in steps, each in an idle moment of its own
// (figureSteps).
import { MESSAGES } from "../contract.js";

if (!("snapshot" in MESSAGES)) throw new Error("the contract has no snapshot message");

/** How long the view has to stay unchanged before its image is drawn again. */
export const SNAPSHOT_DELAY_MS = 1000;
/** Above this many rows no figure is drawn for the image: redrawing the whole tree as SVG after
 * every change would stall the page for seconds (level of detail keeps tables far smaller).
 * A view's picture of its own drawing (`picture`) is made at any size. */
export const SNAPSHOT_MAX_ROWS = 20_000;

/**
 * @typedef {{ data: string, width: number, height: number }} Snapshot a PNG (base64) and its
 *   size in CSS pixels
 * @typedef {import("./renderer-api.js").TableLike} TableLike
 */

/**
 * @typedef {object} Snapshots
 * @property {() => void} schedule the view changed: draw its image once it has settled
 * @property {Snapshot | null} latest
 * @property {() => Promise<void>} take draws the image now (what `schedule` ends with)
 * @property {() => void} dispose no more images
 */

/**
 * @template {TableLike} T
 * @param {object} options
 * @param {Pick<import("./model.js").CCTModel, "send">} options.model the view's model
 * @param {HTMLElement} options.el gets the `data-cct-snapshot` stamp
 * @param {() => import("./renderer-api.js").ViewFigure<T> | null} options.current what the view
 *   shows now (null: nothing)
 * @param {import("./renderer-api.js").Deps<T>["figureSteps"]} options.figureSteps
 * @param {import("./renderer-api.js").Deps<T>["svgToPng"]} options.svgToPng
 * @param {(scale: number) => Promise<string> | null} [options.picture] the view's picture of its
 *   own drawing, where the renderer can make one (null: draw a figure)
 * @param {number} [options.delay]
 * @param {number} [options.maxRows]
 * @returns {Snapshots}
 */
export function createSnapshots({
  model,
  el,
  current,
  figureSteps,
  svgToPng,
  picture = () => null,
  delay = SNAPSHOT_DELAY_MS,
  maxRows = SNAPSHOT_MAX_ROWS,
}) {
  /** @type {Snapshot | null} */
  let latest = null;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  let disposed = false;
  /** What the latest picture shows: the table and the state, options and scale it was drawn
   * with. The same again (a resize to the same size, a zoom back, a theme switch, which figures
   * do not follow) draws nothing. */
  let drawn = { table: /** @type {unknown} */ (null), key: "" };

  async function take() {
    const figure = current();
    if (disposed || !figure || !figure.state.colorBy) return;
    const { width, height } = figure.options;
    if (!(width > 0 && height > 0)) return;
    const scale = Math.min(2, Math.max(1, globalThis.devicePixelRatio || 1));
    const key = JSON.stringify([figure.state, figure.options, scale]);
    if (drawn.table === figure.table && drawn.key === key) return;
    try {
      // the view pictures its own drawing: a figure would lay the whole tree out again and place
      // its labels again (at 1,000 nodes drawn as SVG a task of 70–140 ms; on canvas at 10,000,
      // two of 200–370 ms)
      const own = picture(scale);
      if (!own && figure.table.size > maxRows) return;
      const svg = own ? null : await stepped(figureSteps(figure.table, figure.state, figure.options));
      if (disposed || (!own && svg === null)) return;
      const data = own ? await own : await svgToPng(/** @type {string} */ (svg), width, height, scale);
      if (disposed) return;
      drawn = { table: figure.table, key };
      if (latest?.data === data && latest.width === width && latest.height === height) return;
      latest = { data, width, height };
      model.send({ type: "snapshot", png: data, width, height });
      el.dataset.cctSnapshot = String(Date.now());
    } catch (error) {
      console.warn("cctviz: no static image of this view", error);
    }
  }

  /** Runs a figure's steps, each in an idle moment; null if the view went away meanwhile.
   * @param {Generator<void, { svg: string }, void>} steps */
  async function stepped(steps) {
    try {
      for (;;) {
        const step = steps.next();
        if (step.done) return step.value.svg;
        await idleMoment(delay);
        if (disposed) return null;
      }
    } finally {
      steps.return(/** @type {never} */ (undefined)); // an early end removes its drawing
    }
  }

  return {
    schedule() {
      if (disposed) return;
      clearTimeout(timer);
      // then in a moment the page is idle: drawing the picture never holds up a gesture
      const idle = globalThis.requestIdleCallback;
      timer = setTimeout(() => (idle ? idle(() => take(), { timeout: delay }) : take()), delay);
    },
    get latest() {
      return latest;
    },
    take,
    dispose() {
      disposed = true;
      clearTimeout(timer);
    },
  };
}

/**
 * Marks `el` (`data-cct-static`) while Python shows the view's picture in an output right after
 * the view's (`_static_follows`): the widget's stylesheet hides that output where the view runs
 * (a PNG output carries no class of ours). Only then are pictures worth drawing: `follows` is
 * called when it becomes so.
 * @param {Pick<import("./model.js").CCTModel, "get" | "on" | "off">} model
 * @param {HTMLElement} el
 * @param {() => void} follows
 * @returns {() => void} stops watching
 */
export function markStatic(model, el, follows) {
  const mark = () => {
    const on = model.get("_static_follows") === true;
    if (on) el.dataset.cctStatic = "follows";
    else delete el.dataset.cctStatic;
    if (on) follows();
  };
  mark();
  model.on("change:_static_follows", mark);
  return () => model.off("change:_static_follows", mark);
}

/**
 * Whether the output right after the view's, in a notebook's output area (JupyterLab, Notebook 7,
 * nbclassic), is the view's static picture: the note Python shows until the view's first picture
 * (its text starts "cctviz: "), or the HTML of ours. What a view that missed `_static_follows`
 * (deafness.js) marks itself by, so the stylesheet hides that output all the same.
 * @param {HTMLElement} el
 */
export function followedByPicture(el) {
  const row = el.parentElement?.matches(".jp-OutputArea-output, .output_subarea")
    ? el.parentElement.parentElement
    : null;
  const next = row?.nextElementSibling;
  if (!next) return false;
  const text = next.querySelector('.jp-OutputArea-output[data-mime-type="text/plain"], .output_text');
  return Boolean(next.querySelector(".cctviz-static") || text?.textContent?.startsWith("cctviz: "));
}

/** A promise of the page's next idle moment (at most `timeout` ms away; a task where there is no
 * requestIdleCallback). @param {number} timeout @returns {Promise<void>} */
function idleMoment(timeout) {
  const idle = globalThis.requestIdleCallback;
  return new Promise((resolve) => (idle ? idle(() => resolve(), { timeout }) : setTimeout(resolve, 0)));
}
