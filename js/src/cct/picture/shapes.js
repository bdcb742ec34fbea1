// Glyph outlines shared by both backends: a collapsed subtree is a right-pointing triangle (it
// hides what is to its right), an aggregate of pruned nodes a diamond; real nodes are circles, and
// in a compare view a context of only the first run a square, of only the second a hexagon.

/** The smallest radius of a square or a hexagon, in pixels. At the size scale's smallest (2.5: a
 * 5 px dot) they cannot be told from circles, and a hexagon of radius 5 still looks round at 1x;
 * from 6 on a square's corners and a hexagon's corners show. They mark what a compare view's runs
 * do not share: that must be seen, even where a node's value is tiny. */
export const SHAPED_MIN_R = 6;

/**
 * The radius a mark of `shape` is drawn at, for a size scale's radius `r`.
 * @param {import("./scene.js").NodeMark["shape"]} shape
 * @param {number} r
 */
export function glyphRadius(shape, r) {
  return shape === "square" || shape === "hexagon" ? Math.max(r, SHAPED_MIN_R) : r;
}

/**
 * SVG path data of a glyph of "radius" r centred on (x, y).
 * @param {import("./scene.js").NodeMark["shape"]} shape
 * @param {number} x
 * @param {number} y
 * @param {number} r
 * @returns {string}
 */
export function shapePath(shape, x, y, r) {
  if (shape === "triangle") {
    const h = r * 1.25;
    return `M${x - h * 0.8},${y - h}L${x + h},${y}L${x - h * 0.8},${y + h}Z`;
  }
  if (shape === "square") {
    const h = r * 0.9;
    return `M${x - h},${y - h}H${x + h}V${y + h}H${x - h}Z`;
  }
  if (shape === "hexagon") {
    const h = r * 1.1;
    const w = h * 0.866;
    return `M${x},${y - h}L${x + w},${y - h / 2}L${x + w},${y + h / 2}L${x},${y + h}L${x - w},${y + h / 2}L${x - w},${y - h / 2}Z`;
  }
  if (shape === "diamond") {
    const h = r * 1.3;
    return `M${x},${y - h}L${x + h},${y}L${x},${y + h}L${x - h},${y}Z`;
  }
  return `M${x + r},${y}A${r},${r} 0 1,1 ${x - r},${y}A${r},${r} 0 1,1 ${x + r},${y}Z`;
}
