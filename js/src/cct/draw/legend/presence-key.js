// The key of a compare view's glyphs: a square for the contexts only the first run has, a hexagon
// for those only the second has, each with its run's key. Run keys are long ("only in launchdate
// 2025-06-11 … 2025-06-18 (median of 5)"): in the legends' column they are wrapped whole; in the
// row on top they are cut in their middle, whole on hover.
import { displayText } from "../../base/text.js";
import { shortenName } from "../../picture/label-text.js";
import { shapePath } from "../../picture/shapes.js";
import { TITLE_LINE } from "./legend.js";
import { wrapText } from "./wrap-text.js";

/** Width and lines of a run key in the column (the legends' room less the glyph). */
const KEY_WIDTH = 156;
const KEY_LINES = 4;

/**
 * A run key's lines: in the column, whole on as many lines as it needs (up to `KEY_LINES`); in the
 * row on top, one line cut in its middle.
 * @param {string} run @param {boolean} onTop @param {(text: string) => number} measure
 * @returns {{ lines: string[], cut: boolean, gaps: string[] }}
 */
export function presenceLines(run, onTop, measure) {
  if (onTop) {
    const line = shortenName(run, 40);
    return { lines: [line], cut: line !== run, gaps: [""] };
  }
  return wrapText(run, KEY_WIDTH, measure, KEY_LINES);
}

/**
 * Draws the key into `g` (its class set here).
 * @param {import("d3-selection").Selection<SVGGElement, unknown, null, undefined>} g
 * @param {[string, string]} presence what the square and the hexagon mean
 * @param {boolean} onTop @param {(text: string) => number} measure
 * @returns {number} where the next key line would start (6 past the last glyph's centre)
 */
export function drawPresenceKey(g, presence, onTop, measure) {
  g.attr("class", "cct-presence-key");
  let cy = 6;
  for (const [i, run] of presence.entries()) {
    g.append("path")
      .attr("class", "cct-key-glyph")
      .attr("fill", "none")
      .attr("d", shapePath(i ? "hexagon" : "square", 6, cy, 5));
    const label = g
      .append("text")
      .attr("x", 16)
      .attr("y", cy + 4);
    const { lines, cut, gaps } = presenceLines(run, onTop, measure);
    lines.forEach((line, j) => {
      label
        .append("tspan")
        .attr("x", 16)
        .attr("dy", j ? TITLE_LINE : null)
        .text(line + gaps[j]); // the space it broke at: the key reads whole
    });
    if (cut) label.append("title").text(displayText(run)); // the whole run key on hover
    cy += 16 + (lines.length - 1) * TITLE_LINE;
  }
  return cy;
}
