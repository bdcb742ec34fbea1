// Measuring text in the page: the widths of labels in the labels' font, and of a figure's legend
// text in its font. A canvas measures them where there is one (browsers); jsdom has none, so
// they are estimated from the number of characters.

/**
 * Text width in pixels: measured with a canvas where there is one (browsers), else estimated.
 * @param {Document} doc @param {number} fontPx @param {string} fontFamily
 * @returns {(text: string) => number}
 */
export function textMeasure(doc, fontPx, fontFamily) {
  /** @type {CanvasRenderingContext2D | null} */
  let ctx = null;
  try {
    ctx = doc.createElement("canvas").getContext("2d");
  } catch {
    ctx = null;
  }
  if (ctx && typeof ctx.measureText === "function") {
    const context = ctx;
    context.font = `${fontPx}px ${fontFamily}`;
    // a little air: the SVG's text may be rendered with a slightly different font than measured;
    // widths are kept (the same names come back at every zoom)
    /** @type {Map<string, number>} */
    const widths = new Map();
    return (text) => {
      let width = widths.get(text);
      if (width === undefined) {
        width = context.measureText(text).width * 1.06 + 2;
        if (widths.size < 50_000) widths.set(text, width);
      }
      return width;
    };
  }
  return (text) => [...text].length * fontPx * 0.62 + 1;
}

/**
 * Widths of legend text in the figure's font (a canvas measures them; jsdom has none: estimated).
 * @param {Document} doc @param {import("../legend/figure-style.js").FigureStyle} style
 * @returns {(text: string, bold?: boolean) => number}
 */
export function textWidth(doc, style) {
  /** @type {CanvasRenderingContext2D | null} */
  let ctx = null;
  try {
    ctx = doc.createElement("canvas").getContext("2d");
  } catch {
    ctx = null;
  }
  return (text, bold = false) => {
    if (!ctx || typeof ctx.measureText !== "function") return [...text].length * style.fontPx * (bold ? 0.66 : 0.6) + 1;
    ctx.font = `${bold ? "600 " : ""}${style.fontPx}px ${style.fontFamily}`;
    return ctx.measureText(text).width + 1;
  };
}
