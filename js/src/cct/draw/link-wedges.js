// Dense fans of links as filled wedges. Fitted, a node's thousands of children lie a fraction of a
// pixel apart, and their links, stroked one by one, cover the same pixels hundreds of times: a
// software rasteriser (Chromium without a GPU) spent ~40 ms a painting on the 9,110 links of one
// fan, most of an expand's time, to show a solid grey wedge. The links from one parent to
// children at one depth are the curves (x0 + dx·u(t), y0 + (y1 − y0)·s(t)) (canvas-paint.js's
// `linksPath`): at each t their points lie on one vertical line, in the order of their ends, so
// the union of a run of them is the region between its first and last curve, stroked. Where the
// ends lie less than a stroke's width apart, that union is solid: the region filled and its two
// outer links stroked paint the same pixels as all of its links.

/** Links in a run below which they are stroked one by one (a wedge gains nothing on a few). */
const MIN_RUN = 4;

/**
 * @typedef {import("./svg-backend.js").LinkMark} LinkMark
 * @typedef {{ x0: number, y0: number, x1: number, ya: number, yb: number, links: number }} Wedge
 *   a parent at (x0, y0) and the children at x1 from ya to yb (ya ≤ yb); `links`: how many
 */

/**
 * Splits `links` into wedges (runs of at least MIN_RUN links from one parent to one depth whose
 * ends, in order, are at most `gap` apart) and the links left to stroke one by one, in their
 * order: every link not in a wedge, and each wedge's first and last (its outline's curves).
 * @param {LinkMark[]} links
 * @param {number} gap layout units: the largest distance between neighbouring ends in a wedge
 *   (at most the stroke's width, for the union of the strokes to be solid)
 * @returns {{ wedges: Wedge[], rest: LinkMark[] }}
 */
export function fanWedges(links, gap) {
  // links by parent (x0, y0) and depth x1; a tree's links from one parent share all three
  /** @type {Map<number, Map<number, Map<number, number[]>>>} */
  const groups = new Map();
  for (let i = 0; i < links.length; i++) {
    const { x0, y0, x1 } = links[i];
    const byX1 = inner(inner(groups, x0), y0);
    const list = byX1.get(x1);
    if (list) list.push(i);
    else byX1.set(x1, [i]);
  }
  /** @type {Wedge[]} */
  const wedges = [];
  const merged = new Uint8Array(links.length);
  for (const [x0, byY] of groups) {
    for (const [y0, byX1] of byY) {
      for (const [x1, members] of byX1) {
        if (members.length < MIN_RUN) continue;
        members.sort((a, b) => links[a].y1 - links[b].y1);
        let start = 0;
        for (let j = 1; j <= members.length; j++) {
          if (j < members.length && links[members[j]].y1 - links[members[j - 1]].y1 <= gap) continue;
          if (j - start >= MIN_RUN) {
            const ya = links[members[start]].y1;
            const yb = links[members[j - 1]].y1;
            wedges.push({ x0, y0, x1, ya, yb, links: j - start });
            for (let m = start + 1; m < j - 1; m++) merged[members[m]] = 1;
          }
          start = j;
        }
      }
    }
  }
  return { wedges, rest: wedges.length ? links.filter((_, i) => !merged[i]) : links };
}

/**
 * The map under `key` in `map`, made if missing.
 * @template V @param {Map<number, Map<number, V>>} map @param {number} key
 * @returns {Map<number, V>}
 */
function inner(map, key) {
  const found = map.get(key);
  if (found) return found;
  const made = new Map();
  map.set(key, made);
  return made;
}

/**
 * The wedges' region, to fill in the links' colour: each bounded by the curve from its parent to
 * its first child's end, the line down to its last child's, and that child's curve back.
 * @param {Wedge[]} wedges
 */
export function wedgesPath(wedges) {
  const path = new Path2D();
  for (const { x0, y0, x1, ya, yb } of wedges) {
    const mx = (x0 + x1) / 2;
    path.moveTo(x0, y0);
    path.bezierCurveTo(mx, y0, mx, ya, x1, ya);
    path.lineTo(x1, yb);
    path.bezierCurveTo(mx, yb, mx, y0, x0, y0);
    path.closePath();
  }
  return path;
}
