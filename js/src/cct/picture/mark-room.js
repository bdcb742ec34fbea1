// Marks no larger than their rows: in a column squeezed tighter than its marks (a small figure of
// a node with many children), each mark shrinks to its room — 0.6 of the gap to its nearest
// neighbour above or below, never under the smallest radius. Where even the smallest marks would
// touch, every other mark of the crowded run steps left onto its link (the run's largest stays in
// its column, its label right of it), so that no two marks overlap.

/**
 * Caps the screen radius `r` of the marks (changed in place; the list is not reordered) to the room
 * their column leaves, and staggers runs of marks at the smallest radius that still touch.
 * @param {{ x: number, y: number, r: number, drawnAt?: number }[]} marks layout positions, screen radii
 * @param {number} k the zoom: layout units to screen pixels
 * @param {number} rMin the smallest radius drawn
 * @returns {boolean} whether any mark shrank or moved
 */
export function fitMarksToRows(marks, k, rMin) {
  const s = [...marks].sort((a, b) => a.x - b.x || a.y - b.y); // by column
  const r0 = s.map((m) => m.r);
  /** whether `o` is `m`'s neighbour in its column @param {typeof s[0]} m @param {typeof s[0] | undefined} o */
  const near = (m, o) => o && Math.abs(o.x - m.x) * k < 1;
  let changed = false;
  s.forEach((m, i) => {
    // a triangle reaches past its radius: 0.6 of the gap
    const room = [s[i - 1], s[i + 1]].map((o) => (o && near(m, o) ? 0.6 * k * Math.abs(o.y - m.y) : m.r));
    const r = Math.max(rMin, Math.min(m.r, ...room));
    if (r < m.r) {
      m.drawnAt ??= m.r; // the hot path still follows the marks' sizes
      m.r = r;
      changed = true;
    }
  });
  // runs of marks closer than two smallest radii and a pixel: every other one steps left as far
  const step = 2 * rMin + 1;
  for (let i = 0, j = 1; i < s.length; i = j++) {
    while (j < s.length && near(s[j - 1], s[j]) && k * (s[j].y - s[j - 1].y) < step) j++;
    let big = i;
    for (let a = i; a < j; a++) if (r0[a] > r0[big]) big = a;
    for (let a = i; a < j; a++) {
      if ((a - big) % 2) {
        s[a].x -= step / k;
        changed = true;
      }
    }
  }
  return changed;
}
