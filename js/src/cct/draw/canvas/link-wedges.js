// Dense fans of links as filled wedges. Fitted, a node's thousands of children lie a fraction of a
// pixel apart, and their links, stroked one by one, cover the same pixels hundreds of times: a
// software rasteriser (Chromium without a GPU) spent ~40 ms a painting on the 9,110 links of one
// fan, most of an expand's time, to show a solid grey wedge. The links from one parent to
// children at one depth are the curves (x0 + dx·u(t), y0 + (y1 − y0)·s(t)) (link-path.js's
// `linksPath`): at each t their points lie on one vertical line, in the order of their ends, so
// the union of a run of them is the region between its first and last curve, stroked. Where the
// ends lie less than a stroke's width apart, that union is solid: the region filled and its two
// outer links stroked paint the same pixels as all of its links.

import { runAll, SLICE_ITEMS } from "../../base/steps.js";
import { allLinks } from "../../picture/links.js";

/** Links in a run below which they are stroked one by one (a wedge gains nothing on a few). */
const MIN_RUN = 4;

/** Links read between two yields of `fanWedgeSteps` (10^5 links, cold: 30-50 ms in one go). */
const SLICE_LINKS = SLICE_ITEMS;

/**
 * @typedef {import("../../picture/links.js").Links} Links
 * @typedef {{ x0: number, y0: number, x1: number, ya: number, yb: number, links: number }} Wedge
 *   a parent at (x0, y0) and the children at x1 from ya to yb (ya ≤ yb); `links`: how many
 */

/**
 * Splits the links at `ids` (every link by default) into wedges (runs of at least MIN_RUN links
 * from one parent to one depth whose ends, in order, are at most `gap` apart) and the links left
 * to stroke one by one, in their order: every link not in a wedge, and each wedge's first and
 * last (its outline's curves). Links are grouped by their parent's key `p` (links.js
 * `linkSegments`); links without one (-1) are left as they are. Typed arrays and a counting
 * sort: this runs at every painting, over every link in view (10^5 of a big tree drawn whole;
 * maps of their coordinates took ~90 ms).
 * @param {Links} links
 * @param {number} gap layout units: the largest distance between neighbouring ends in a wedge
 *   (at most the stroke's width, for the union of the strokes to be solid)
 * @param {Int32Array} [ids] the links to split, by index in `links`
 * @returns {{ wedges: Wedge[], rest: Int32Array }} `rest`: indices in `links`
 */
export const fanWedges = (links, gap, ids = allLinks(links)) => runAll(fanWedgeSteps(links, ids, gap));

/**
 * fanWedges in slices: yields after every SLICE_LINKS links of each pass over them.
 * @param {Links} links @param {Int32Array} ids @param {number} gap
 * @returns {Generator<void, { wedges: Wedge[], rest: Int32Array }, void>}
 */
export function* fanWedgeSteps(links, ids, gap) {
  const n = ids.length;
  const { p: parent, x0, y0, x1, y1 } = links;
  let top = -1;
  for (let i = 0; i < n; i++) {
    if (i && i % SLICE_LINKS === 0) yield;
    top = Math.max(top, parent[ids[i]]);
  }
  /** @type {Wedge[]} */
  const wedges = [];
  if (top < 0 || n < MIN_RUN) return { wedges, rest: ids };
  // the links' places in `ids` in order of their parent's key (a counting sort: in their order
  // within one)
  const start = new Int32Array(top + 2);
  for (let i = 0; i < n; i++) {
    if (i && i % SLICE_LINKS === 0) yield;
    const p = parent[ids[i]];
    if (p >= 0) start[p + 1]++;
  }
  for (let k = 1; k < top + 2; k++) start[k] += start[k - 1];
  const order = new Int32Array(start[top + 1]);
  const next = start.slice(0, top + 1);
  for (let i = 0; i < n; i++) {
    if (i && i % SLICE_LINKS === 0) yield;
    const p = parent[ids[i]];
    if (p >= 0) order[next[p]++] = i;
  }
  const merged = new Uint8Array(n);
  let read = 0; // links of the fans read since the last yield (a fan of 10^5 children is read in
  // slices too: in one step it took ~30 ms, cold)
  for (let k = 0; k <= top; k++) {
    if (start[k + 1] - start[k] < MIN_RUN) continue;
    const members = order.subarray(start[k], start[k + 1]);
    // a tidy layout's children come in the order of their places: sorted already, mostly
    let sorted = true;
    for (let j = 1; j < members.length && sorted; j++) {
      if (++read >= SLICE_LINKS) {
        read = 0;
        yield;
      }
      sorted = y1[ids[members[j - 1]]] <= y1[ids[members[j]]];
    }
    if (!sorted) members.set(Array.from(members).sort((a, b) => y1[ids[a]] - y1[ids[b]]));
    let run = 0;
    for (let j = 1; j <= members.length; j++) {
      if (++read >= SLICE_LINKS) {
        read = 0;
        yield;
      }
      const a = ids[members[j - 1]];
      const b = j < members.length ? ids[members[j]] : -1;
      if (b >= 0 && x1[b] === x1[a] && y1[b] - y1[a] <= gap) continue;
      if (j - run >= MIN_RUN) {
        const first = ids[members[run]];
        wedges.push({ x0: x0[first], y0: y0[first], x1: x1[first], ya: y1[first], yb: y1[a], links: j - run });
        for (let m = run + 1; m < j - 1; m++) merged[members[m]] = 1;
      }
      run = j;
    }
  }
  if (!wedges.length) return { wedges, rest: ids };
  const rest = new Int32Array(n);
  let kept = 0;
  for (let i = 0; i < n; i++) {
    if (i && i % SLICE_LINKS === 0) yield;
    if (!merged[i]) rest[kept++] = ids[i];
  }
  return { wedges, rest: rest.subarray(0, kept) };
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
