// A picture of a view made from what is already laid out and drawn, in a figure's colours. A view
// on canvas: its marks painted again onto a canvas of the picture's size, and its overlay (labels,
// legends, band rules, selection rings) copied with its styles written in, drawn on top. A view
// drawn as SVG: its drawing copied so. A figure (figure.js) lays the whole tree out again and
// places its labels again: at 10,000 drawn nodes that is two main-thread tasks of 200–370 ms, and
// at 1,000 nodes drawn as SVG a task of 70–140 ms, while this picture paints in slices (tasks near
// 25 ms each, rasterising included: slices.js), whatever the size of the tree, and encodes its PNG
// off the main thread.
import { hatchPattern } from "./canvas/canvas-paint.js";
import { paintSlice, pictureSlicer } from "./canvas/slices.js";
import { figureStyle, inlineStyles, labelBoxes } from "./legend/figure-style.js";

/** Rings that mark what a figure shows too; the hover and cursor rings are the page's. */
const KEPT_RINGS = ["cct-selected", "cct-holds-selected", "cct-match", "cct-highlight"];

/**
 * @typedef {object} LiveView what a canvas view has drawn
 * @property {{ paintOn: (c: CanvasRenderingContext2D, dpr: number, colors: import("./canvas/canvas-paint.js").Colors) => Generator<void | "work", number, void> }} backend
 * @property {SVGSVGElement} overlay the SVG above the canvas
 * @property {{ width: number, height: number }} size CSS pixels
 * @property {number} k the zoom factor
 */

/**
 * A canvas of `size` at `scale`, and its context; null where the page cannot paint (jsdom).
 * @param {Document} doc @param {{ width: number, height: number }} size @param {number} scale
 */
function pictureCanvas(doc, { width, height }, scale) {
  const canvas = doc.createElement("canvas");
  canvas.width = Math.max(1, Math.round(width * scale));
  canvas.height = Math.max(1, Math.round(height * scale));
  try {
    const c = canvas.getContext("2d");
    return c ? { canvas, c } : null;
  } catch {
    return null;
  }
}

/**
 * The view as a PNG, base64-encoded; null where the page cannot paint (no canvas: jsdom).
 * @param {LiveView} view
 * @param {number} scale device pixels per CSS pixel
 * @returns {Promise<string> | null}
 */
export function livePicture({ backend, overlay, size, k }, scale) {
  const doc = overlay.ownerDocument;
  const drawn = pictureCanvas(doc, size, scale);
  if (!drawn) return null;
  const { canvas, c } = drawn;
  const style = figureStyle("screen");
  const steps = backend.paintOn(c, scale, {
    link: style.link,
    callerLink: style.muted,
    outline: style.nodeStroke,
    missing: hatchPattern(doc, c, style.missingFill, style.muted),
  });
  const svg = overlaySvg(overlay, style, k, size);
  const view = doc.defaultView;
  return (async () => {
    // the painting in slices, each its own task, rasterised in it (reading a pixel makes the
    // canvas rasterise what was painted): else the PNG's encoding would rasterise all of it in
    // one task (~50 ms at 10^4 marks in a software rasteriser). Each slice is as long as the
    // task can take with its rasterising (slices.js).
    // (an offscreen canvas, read for its PNG anyway)
    while (!paintSlice(steps, c, pictureSlicer, pictureSlicer.slice()).done) {
      await new Promise((resolve) => (view ?? globalThis).setTimeout(resolve, 0));
    }
    return onGround(canvas, c, await svgImage(doc, svg), style.background);
  })();
}

/**
 * A view drawn as SVG as a PNG, base64-encoded: its drawing copied, as a figure's (styles
 * written in, the page's hover and cursor left out), on a figure's ground; null where the page
 * cannot paint (jsdom).
 * @param {{ svg: SVGSVGElement, size: { width: number, height: number }, k: number }} view
 * @param {number} scale device pixels per CSS pixel
 * @returns {Promise<string> | null}
 */
export function svgPicture({ svg, size, k }, scale) {
  const doc = svg.ownerDocument;
  const drawn = pictureCanvas(doc, size, scale);
  if (!drawn) return null;
  const style = figureStyle("screen");
  const text = overlaySvg(svg, style, k, size);
  return (async () => onGround(drawn.canvas, drawn.c, await svgImage(doc, text), style.background))();
}

/**
 * `image` drawn over what `c` holds, the figure's ground under both; the canvas's PNG.
 * @param {HTMLCanvasElement} canvas @param {CanvasRenderingContext2D} c
 * @param {HTMLImageElement} image @param {string} background
 */
function onGround(canvas, c, image, background) {
  c.setTransform(1, 0, 0, 1, 0, 0);
  c.globalCompositeOperation = "destination-over"; // the background goes under the marks
  c.fillStyle = background;
  c.fillRect(0, 0, canvas.width, canvas.height);
  c.globalCompositeOperation = "source-over";
  c.drawImage(image, 0, 0, canvas.width, canvas.height);
  return canvasPng(canvas);
}

/**
 * The overlay (or a whole SVG drawing) as a standalone SVG document: the figure's styles written
 * in, interactive marks (hover, cursor) left out, the rings of the selection, matches and
 * highlights drawn as a figure draws those nodes' outlines, the labels on grounds measured in the
 * page.
 * @param {SVGSVGElement} overlay @param {import("./legend/figure-style.js").FigureStyle} style
 * @param {number} k @param {{ width: number, height: number }} size
 */
export function overlaySvg(overlay, style, k, { width, height }) {
  const boxes = labelBoxes(overlay); // in the page: the copy is not laid out
  const svg = /** @type {SVGSVGElement} */ (overlay.cloneNode(true));
  for (const ring of svg.querySelectorAll(".cct-ring")) {
    if (!KEPT_RINGS.some((name) => ring.classList.contains(name))) continue;
    ring.classList.replace("cct-ring", "cct-node"); // styled as the node's own outline
    ring.setAttribute("fill", "none");
  }
  inlineStyles(svg, style, k, boxes);
  // the labels were laid out in the page's font: keep it, with the figure's fallbacks
  const view = overlay.ownerDocument.defaultView;
  const family = view ? view.getComputedStyle(overlay).fontFamily : "";
  if (family) svg.setAttribute("font-family", `${family}, ${style.fontFamily}`);
  svg.setAttribute("width", String(width));
  svg.setAttribute("height", String(height));
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  return new XMLSerializer().serializeToString(svg);
}

/** @param {Document} doc @param {string} svg @returns {Promise<HTMLImageElement>} */
async function svgImage(doc, svg) {
  const url = URL.createObjectURL(new Blob([svg], { type: "image/svg+xml" }));
  try {
    const image = doc.createElement("img");
    image.src = url;
    await image.decode();
    return image;
  } finally {
    URL.revokeObjectURL(url);
  }
}

/**
 * The canvas as a PNG, base64-encoded; encoded off the main thread (`toDataURL` would stall the
 * page ~50-100 ms for a 2x picture of a cell).
 * @param {HTMLCanvasElement} canvas
 * @returns {Promise<string>}
 */
export async function canvasPng(canvas) {
  return base64(await pngOf(canvas));
}

/** The canvas as PNG bytes. @param {HTMLCanvasElement} canvas */
function pngOf(canvas) {
  return new Promise(
    /** @param {(blob: Blob) => void} resolve @param {(error: Error) => void} reject */
    (resolve, reject) =>
      canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error("the canvas gave no PNG"))), "image/png"),
  );
}

/** @param {Blob} blob @returns {Promise<string>} its bytes, base64-encoded */
function base64(blob) {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      const url = String(reader.result);
      resolve(url.slice(url.indexOf(",") + 1));
    };
    reader.onerror = () => reject(reader.error ?? new Error("the PNG could not be read"));
    reader.readAsDataURL(blob);
  });
}
