// Label text and placement: shortened C++ names, and greedy collision avoidance in screen space.

import { characters } from "./text.js";

const ELLIPSIS = "…";

/** @typedef {{ x0: number, y0: number, x1: number, y1: number }} Box screen coordinates */

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

/**
 * Picks which labels to draw so that none overlap: candidates in priority order, each kept if
 * its box (to the right of the node) is free. Boxes are binned in a uniform grid.
 * @param {{ id: number, x: number, y: number, text: string }[]} candidates screen coordinates
 * @param {{ fontSize: number, charWidth?: number, gap?: number }} metrics
 * @returns {Set<number>} ids of the labels to draw
 */
export function placeLabels(candidates, { fontSize, charWidth = 0.6, gap = 2 }) {
  const cell = fontSize * 4;
  /** @type {Map<string, Box[]>} grid cell → boxes kept that touch it */
  const grid = new Map();
  /** @type {Set<number>} */
  const kept = new Set();
  const h = fontSize + gap;
  for (const c of candidates) {
    const box = { x0: c.x, y0: c.y - h / 2, x1: c.x + c.text.length * fontSize * charWidth + gap, y1: c.y + h / 2 };
    const keys = cellsOf(box, cell);
    if (keys.some((k) => (grid.get(k) ?? []).some((b) => overlaps(b, box)))) continue;
    for (const k of keys) {
      if (!grid.has(k)) grid.set(k, []);
      /** @type {Box[]} */ (grid.get(k)).push(box);
    }
    kept.add(c.id);
  }
  return kept;
}

/**
 * The keys of the grid cells a box touches.
 * @param {Box} box
 * @param {number} cell cell size
 */
function cellsOf(box, cell) {
  /** @type {string[]} */
  const keys = [];
  for (let i = Math.floor(box.x0 / cell); i <= Math.floor(box.x1 / cell); i++) {
    for (let j = Math.floor(box.y0 / cell); j <= Math.floor(box.y1 / cell); j++) keys.push(`${i},${j}`);
  }
  return keys;
}

/** @param {Box} a @param {Box} b */
function overlaps(a, b) {
  return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
}
