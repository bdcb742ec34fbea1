// What is on screen, for Python: it draws figures of the view as it is shown (CCT.to_svg,
// CCT.save), so it needs the drawing's size and the zoom the user set (null while the view is
// fitted), which Python keeps as `_stage_size` and `_view_transform`. They go in `screen`
// messages, not traits: a pan or a zoom must not look like a change of state to hosts that re-run
// the cells depending on a widget (marimo). The zoom is reported once it has stopped changing for
// a moment.
import { MESSAGES } from "../contract.js";

if (!("screen" in MESSAGES)) throw new Error("the contract has no screen message");

/** How long a zoom has to stay put before it is reported to Python. */
export const ZOOM_REPORT_DELAY_MS = 200;

/**
 * @typedef {import("./model.js").CCTModel} CCTModel
 * @typedef {import("./model.js").Transform} Transform
 */

/**
 * @typedef {object} ScreenReport
 * @property {Transform | null} zoomed the zoom the user set; null: the view is fitted
 * @property {(t: Transform | null) => void} zoomEnded a zoom or pan ended (the renderer's `onZoom`)
 * @property {(width: number, height: number) => void} sized the drawing has this size now
 * @property {() => void} dispose a zoom not reported yet is dropped
 */

/**
 * @param {CCTModel} model
 * @param {{ delay?: number }} [options]
 * @returns {ScreenReport}
 */
export function createScreenReport(model, { delay = ZOOM_REPORT_DELAY_MS } = {}) {
  /** @type {Transform | null} */
  let zoomed = null;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  /** @type {[number, number]} the size reported last */
  let known = [0, 0];
  return {
    get zoomed() {
      return zoomed;
    },
    zoomEnded(t) {
      zoomed = t ? { x: t.x, y: t.y, k: t.k } : null;
      const value = zoomed ? /** @type {[number, number, number]} */ ([zoomed.x, zoomed.y, zoomed.k]) : null;
      clearTimeout(timer);
      timer = setTimeout(() => model.send({ type: "screen", transform: value }), delay);
    },
    sized(width, height) {
      if (width > 0 && height > 0 && (known[0] !== width || known[1] !== height)) {
        known = [width, height];
        model.send({ type: "screen", size: known });
      }
    },
    dispose() {
      clearTimeout(timer);
    },
  };
}
