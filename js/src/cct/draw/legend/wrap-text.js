// A legend title on lines of a given width, broken after spaces and the separators of metric
// names (figures show titles whole; see legend.js).

import { characters, displayText } from "../../base/text.js";

/**
 * Lines of `whole` (as displayed) no wider than `width`, broken after spaces and `#./:_`; a part wider than a
 * line is cut (…), and so is a 4th line. `gaps`: the white space each line broke at (" ", or ""
 * after a separator and at the end), so that the lines and their gaps read as the whole text.
 * @param {string} whole @param {number} width @param {(text: string) => number} measure
 * @returns {{ lines: string[], cut: boolean, gaps: string[] }}
 */
export function wrapText(whole, width, measure, maxLines = 3) {
  const text = displayText(whole);
  const parts = text.match(/[^\s#./:_]*[\s#./:_]*/g)?.filter(Boolean) ?? [text];
  /** @type {string[]} */
  const lines = [];
  /** @type {string[]} */
  const gaps = [];
  let line = "";
  for (const part of parts) {
    if (line && measure((line + part).trimEnd()) > width) {
      lines.push(line.trimEnd());
      gaps.push(line.slice(line.trimEnd().length));
      line = part;
    } else line += part;
  }
  lines.push(line.trimEnd());
  gaps.push("");
  let cut = lines.length > maxLines;
  const kept = lines.slice(0, maxLines);
  if (cut) kept[maxLines - 1] += "…";
  return {
    lines: kept.map((l) => {
      if (measure(l) <= width) return l;
      cut = true;
      const chars = characters(l.replace(/…$/, ""));
      let n = chars.length;
      while (n > 1 && measure(`${chars.slice(0, n).join("")}…`) > width) n--;
      return `${chars.slice(0, n).join("")}…`;
    }),
    cut,
    gaps: kept.map((_, i) => (i === kept.length - 1 ? "" : gaps[i])),
  };
}
