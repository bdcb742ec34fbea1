// What a label says: a long (C++) name shortened (brackets collapsed, the last qualified part
// kept or the middle elided), and a label cut to fit (the full name stays in the tooltip). Whole characters only.

import { characters } from "../base/text.js";

const ELLIPSIS = "…";

/**
 * Shortens long (C++) names for labels: template arguments and parameter lists become `<…>` and
 * `(…)`; then a qualified name keeps its last part (the function, not its namespace: see
 * `distinctPart`), else the middle is elided, to `max` characters (whole characters: an emoji is
 * never halved). The full name stays in the tooltip.
 * @param {string} name
 * @param {number} [max]
 */
export function shortenName(name, max = 32) {
  if (name.length <= max) return name; // UTF-16 units: never fewer than characters
  const s = collapseBrackets(collapseBrackets(name, "<", ">"), "(", ")");
  const chars = characters(s);
  if (chars.length <= max) return s;
  const kept = keepTail(chars, max, false);
  if (kept) return kept;
  const head = Math.ceil((max - 1) * 0.4);
  const tail = max - 1 - head;
  return chars.slice(0, head).join("") + ELLIPSIS + chars.slice(chars.length - tail).join("");
}

/** Where a qualified name's parts start: after `::`, `.`, `/`, `\\`, `:`, `#` or a library's
 * prefix (`MPI_`, `PMPI_` before a capital). */
const SEPARATOR = /::|[./\\:#]|\b[A-Z]{2,5}_(?=[A-Z][a-z])/g;

/**
 * The ends of a qualified name that tell it apart, longest first, as characters: its qualified
 * parts with three letters or more ("Allreduce" of "MPI_Allreduce", "cycle" of "lulesh.cycle",
 * "SweepSolver(…)" of "Kripke::SweepSolver(…)"; a file's "81" of "x.S:81" is too little). None
 * for a name without parts; separators in its parameters do not count.
 * @param {string} name
 */
function distinctEnds(name) {
  const open = name.search(/[(<]/);
  return [...name.slice(0, open < 0 ? undefined : open).matchAll(SEPARATOR)]
    .map((m) => name.slice(m.index + m[0].length))
    .filter((end) => /\p{L}.*\p{L}.*\p{L}/u.test(end))
    .map(characters);
}

/**
 * A qualified name in `max` characters keeping a distinct end whole (the longest that fits): the
 * start of the name before it (five characters or more, else none) and an ellipsis; else the
 * start of the shortest end ("Allgath…" of "997:MPIR_Allgather_impl"); null for a name without parts.
 * @param {string[]} chars @param {number} max @param {boolean} [cutLast] else null there
 */
function keepTail(chars, max, cutLast = true) {
  const ends = distinctEnds(chars.join(""));
  const end = ends.find((e) => e.length < max);
  const head = max - 1 - (end?.length ?? 0);
  if (end) return (head >= 5 ? chars.slice(0, head).join("") : "") + ELLIPSIS + end.join("");
  const last = ends.at(-1);
  return last && cutLast && max > MIN_NAME
    ? last
        .slice(0, max - 1)
        .join("")
        .replace(/…$/, "") + ELLIPSIS
    : null;
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
    if (ch === open && (depth > 0 || /[\w:>]$/.test(out))) {
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
 * `text` cut to `chars` characters (whole ones: grapheme clusters): its share dropped first, then its name
 * shortened, keeping a "(+N)" count of a collapsed node: a qualified name keeps its last part
 * (`distinctPart`), another its start, which is what a reader recognises.
 * @param {string} text @param {number} chars
 */
export function cutText(text, chars) {
  if (text.length <= chars || characters(text).length <= chars) return text;
  const [, name = text, count = ""] = TAIL.exec(text) ?? [];
  const whole = name + count;
  if (characters(whole).length <= chars) return whole;
  const keep = Math.max(MIN_NAME, chars - count.length - 1);
  const letters = characters(name);
  // a qualified name keeps what tells it apart ("…Allreduce", not "MPI_…"); else its start
  return (keepTail(letters, keep + 1) ?? letters.slice(0, keep).join("") + ELLIPSIS) + count;
}
