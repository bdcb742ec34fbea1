// Marks no larger than their rows: in a column squeezed tighter than its marks (a small figure of
// a node with many children), each mark shrinks to its room — 0.6 of the gap to its nearest
// neighbour above or below, never under the smallest radius — so that no two marks overlap.

/**
 * Caps the screen radius `r` of the marks (changed in place, and sorted by column) to the room their column leaves.
 * @param {{ x: number, y: number, r: number }[]} marks layout positions, screen radii
 * @param {number} k the zoom: layout units to screen pixels
 * @param {number} rMin the smallest radius drawn
 * @returns {boolean} whether any mark shrank
 */
export function fitMarksToRows(marks, k, rMin) {
  const s = marks.sort((a, b) => a.x - b.x || a.y - b.y);
  let changed = false;
  s.forEach((m, i) => {
    // a triangle reaches past its radius: 0.6 of the gap
    const room = [s[i - 1], s[i + 1]].map((o) =>
      o && Math.abs(o.x - m.x) * k < 1 ? 0.6 * k * Math.abs(o.y - m.y) : m.r,
    );
    const r = Math.max(rMin, Math.min(m.r, ...room));
    if (r < m.r) {
      m.r = r;
      changed = true;
    }
  });
  return changed;
}
