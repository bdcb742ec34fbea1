// SVG text → PNG, in the browser: the SVG is drawn as an image onto a canvas.
import { canvasPng } from "../draw/live-picture.js";

/**
 * @param {string} svg a standalone SVG document
 * @param {number} width CSS pixels
 * @param {number} height
 * @param {number} [scale] device pixels per CSS pixel
 * @returns {Promise<string>} the PNG, base64-encoded
 */
export async function svgToPng(svg, width, height, scale = 1) {
  const doc = globalThis.document;
  const url = URL.createObjectURL(new Blob([svg], { type: "image/svg+xml" }));
  try {
    const image = new Image();
    image.src = url;
    await image.decode();
    const canvas = doc.createElement("canvas");
    canvas.width = Math.max(1, Math.round(width * scale));
    canvas.height = Math.max(1, Math.round(height * scale));
    const context = /** @type {CanvasRenderingContext2D} */ (canvas.getContext("2d")); // any browser has one
    context.drawImage(image, 0, 0, canvas.width, canvas.height);
    return await canvasPng(canvas);
  } finally {
    URL.revokeObjectURL(url);
  }
}
