// Marks no larger than their rows: in a column squeezed tighter than its marks (a small figure of
// a node with many children), each mark shrinks to its room — 0.6 of the gap to its nearest
// neighbour above or below, never under the smallest radius — so that no two marks overlap.

/**
 * Caps the screen radius `r` of the marks (changed in place) to the room their column leaves.
 * @param {{ x: number, y: number, r: number }[]} marks layout positions, screen radii
 * @param {number} k the zoom: layout units to screen pixels
 * @param {number} rMin the smallest radius drawn
 * @returns {boolean} whether any mark shrank
 */
export function fitMarksToRows(marks, k, rMin) {
  const sorted = [...marks].sort((a, b) => a.x - b.x || a.y - b.y);
  let changed = false;
  for (let i = 0; i < sorted.length; i++) {
    const m = sorted[i];
    let gap = Number.POSITIVE_INFINITY;
    for (const j of [i - 1, i + 1]) {
      const o = sorted[j];
      if (o && Math.abs(o.x - m.x) * k < 1) gap = Math.min(gap, Math.abs(o.y - m.y) * k);
    }
    const r = Math.max(rMin, Math.min(m.r, 0.6 * gap)); // a triangle reaches past its radius
    if (r < m.r) {
      m.r = r;
      changed = true;
    }
  }
  return changed;
}
