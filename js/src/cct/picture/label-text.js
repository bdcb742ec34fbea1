// What a label says: a long (C++) name shortened (brackets collapsed, the middle elided), and a
// label cut at its end to fit (the full name stays in the tooltip). Whole characters only.

import { characters } from "../base/text.js";

const ELLIPSIS = "…";

/**
 * Shortens long (C++) names for labels: template arguments and parameter lists become `<…>` and
 * `(…)`, then the middle is elided to `max` characters (whole characters: an emoji is never halved). The full name stays in the tooltip.
 * @param {string} name
 * @param {number} [max]
 */
export function shortenName(name, max = 32) {
  if (name.length <= max) return name; // UTF-16 units: never fewer than characters
  const s = collapseBrackets(collapseBrackets(name, "<", ">"), "(", ")");
  const chars = characters(s);
  if (chars.length <= max) return s;
  const head = Math.ceil((max - 1) * 0.4);
  const tail = max - 1 - head;
  return chars.slice(0, head).join("") + ELLIPSIS + chars.slice(chars.length - tail).join("");
}

/**
 * @param {string} s
 * @param {string} open one character
 * @param {string} close
 */
function collapseBrackets(s, open, close) {
  if (!s.includes(open)) return s;
  let out = "";
  let depth = 0;
  for (const ch of s) {
    if (ch === open && (depth > 0 || /[\w:]$/.test(out))) {
      // only brackets right after a name: "vector<int>", "f(int)"; not "<unknown procedure>"
      if (depth === 0) out += open + ELLIPSIS;
      depth++;
    } else if (ch === close && depth > 0) {
      depth--;
      if (depth === 0) out += close;
    } else if (depth === 0) out += ch;
  }
  // an unbalanced name ("operator<") keeps its text as it was
  return depth === 0 ? out : s;
}

/** Fewest characters of a name a cut label keeps: "F… (+3)" names nothing. */
const MIN_NAME = 4;

/** What a label ends with: a collapsed node's "(+N)" count (kept when its name is cut), a
 * share "42%" (dropped first: a whole name says more than a share). */
const TAIL = /^(.*?)( \(\+[\d,]+\))?( \d+(?:\.\d+)?%)?$/su;

/**
 * `text` cut to `chars` characters (whole ones: grapheme clusters): its share dropped first, then its name cut at
 * its end, keeping a "(+N)" count of a collapsed node: the start of a name is what a reader
 * recognises.
 * @param {string} text @param {number} chars
 */
export function cutText(text, chars) {
  if (text.length <= chars || characters(text).length <= chars) return text;
  const [, name = text, count = ""] = TAIL.exec(text) ?? [];
  const whole = name + count;
  if (characters(whole).length <= chars) return whole;
  const keep = Math.max(MIN_NAME, chars - count.length - 1);
  return characters(name).slice(0, keep).join("") + ELLIPSIS + count;
}
