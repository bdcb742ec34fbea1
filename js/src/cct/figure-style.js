// Looks of exported figures. The widget takes its colours from JupyterLab's theme through CSS;
// a standalone SVG cannot rely on a style sheet, so a figure style names every colour, width
// and font as presentation attributes (see figure.js).

/** Fonts that exist on most systems, metric-compatible first: the figure's text keeps its size
 * whichever is installed where the SVG is opened. */
export const FONT_FALLBACKS = 'Helvetica, Arial, "Liberation Sans", "DejaVu Sans", sans-serif';

const PX_PER_PT = 96 / 72;

/**
 * @typedef {object} FigureStyle
 * @property {string} background
 * @property {string} text
 * @property {string} muted legend outlines and the missing-value hatching
 * @property {string} fontFamily
 * @property {number} fontPx text size of labels and legends, in CSS pixels
 * @property {string} link
 * @property {number} linkWidth screen pixels at any zoom
 * @property {string} nodeStroke
 * @property {number} nodeWidth
 * @property {string} selected
 * @property {string} match
 * @property {string} highlight
 * @property {string} missingFill
 * @property {string | null} palette used when the view's palette is "auto" (null: keep "auto")
 */

/** @type {Record<string, FigureStyle>} */
export const FIGURE_STYLES = {
  // the widget as it looks in JupyterLab's light theme
  screen: {
    background: "#ffffff",
    text: "#1f1f1f",
    muted: "#616161",
    fontFamily: FONT_FALLBACKS,
    fontPx: 11,
    link: "#b0b0b0",
    linkWidth: 1.2,
    nodeStroke: "#444444",
    nodeWidth: 0.75,
    selected: "#1976d2",
    match: "#e65100",
    highlight: "#d81b60",
    missingFill: "#bdbdbd",
    palette: null,
  },
  // print: white and black, thin strokes, 8 pt text, cividis (colour-blind safe, and its
  // lightness rises monotonically, so it stays ordered in greyscale); marks in Okabe-Ito colours
  paper: {
    background: "#ffffff",
    text: "#000000",
    muted: "#000000",
    fontFamily: FONT_FALLBACKS,
    fontPx: 8 * PX_PER_PT,
    link: "#8c8c8c",
    linkWidth: 0.5,
    nodeStroke: "#000000",
    nodeWidth: 0.35,
    selected: "#0072b2",
    match: "#d55e00",
    highlight: "#cc79a7",
    missingFill: "#d9d9d9",
    palette: "cividis",
  },
};

/**
 * A figure style by name, with the font overridden.
 * @param {string} name
 * @param {{ fontFamily?: string | null, fontSize?: number | null }} [overrides] fontSize in points
 * @returns {FigureStyle}
 */
export function figureStyle(name, { fontFamily = null, fontSize = null } = {}) {
  const base = FIGURE_STYLES[name];
  if (!base) {
    throw new RangeError(
      `unknown figure style ${JSON.stringify(name)}; accepted: ${Object.keys(FIGURE_STYLES).join(", ")}`,
    );
  }
  const style = { ...base };
  if (fontFamily) {
    // one family name with spaces needs quotes in a font-family list; a list is taken as it is
    const quote = /\s/.test(fontFamily) && !/[,"']/.test(fontFamily);
    style.fontFamily = `${quote ? `"${fontFamily}"` : fontFamily}, ${FONT_FALLBACKS}`;
  }
  if (fontSize !== null) {
    if (!(fontSize > 0)) throw new RangeError(`font size must be a positive number of points; got ${fontSize}`);
    style.fontPx = fontSize * PX_PER_PT;
  }
  return style;
}
