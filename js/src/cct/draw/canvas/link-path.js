// A link's curve on a canvas: parent → child cubic curves (horizontal tangents at both ends, as
// svg-backend.js draws them), cut exactly to the view where a link reaches far out of it, and
// left out where it would stroke the same device pixels as one already in the path.

/** @typedef {import("../../picture/links.js").Links} Links */

/**
 * The links at `ids` (all when null) as one path: each the cubic curve of svg-backend.js's
 * `linkPath` (horizontal tangents at both ends), but only its part in `box` when it reaches far
 * out of it. Zoomed in on a big tree, thousands of links cross the view from ends hundreds of
 * thousands of pixels apart, and the rasteriser flattens a curve along its whole length: 100 ms a
 * frame for three nodes in view. The part in view is the same curve, cut exactly (de
 * Casteljau). Parts that fall on the same device pixels as one already in the path are left out:
 * a node with 9,000 children far below the view fans out into 9,000 cut links that leave the view
 * through a few dozen pixels, and stroking each of them again cost the rasteriser ~25 ms a frame
 * for the same picture.
 * @param {Links} links @param {ArrayLike<number> | null} ids
 * @param {{ x0: number, x1: number, y0: number, y1: number, far: number, px?: number }} box
 *   layout units; `far`: a link longer than this is cut to the box; `px`: a device pixel (0:
 *   keep every cut part)
 * @param {Set<string>} [cut] the cut parts already stroked (by their points rounded to device
 *   pixels), shared by the batches of one painting
 */
export function linksPath(links, ids, box, cut = new Set()) {
  const path = new Path2D();
  const px = box.px ?? 0;
  const { x0: left, x1: right, y0: top, y1: bottom, far } = box;
  const points = new Float64Array(8); // a cut part's control points
  const last = new Float64Array(8).fill(Number.NaN); // the last cut part's, in device pixels
  const ends = new Float64Array(4).fill(Number.NaN); // the last whole link's ends, likewise
  // Scalars only, no array or closure a link: this loop runs for every link in view each
  // painting (a fan of 9,000 links cost ~5 ms in arrays and closures, most of an expand's frame)
  const n = ids ? ids.length : links.length;
  for (let j = 0; j < n; j++) {
    const i = ids ? ids[j] : j;
    const x0 = links.x0[i];
    const y0 = links.y0[i];
    const x1 = links.x1[i];
    const y1 = links.y1[i];
    const mx = (x0 + x1) / 2;
    if (Math.abs(x1 - x0) + Math.abs(y1 - y0) <= far) {
      // a link whose ends are on the device pixels of the one before: so is its whole curve (its
      // control points are its ends'). Fitted, a fan of 9,000 children is that many curves
      // across the view a tenth of a pixel apart, ~140 ms of software rasterising a painting.
      if (px > 0 && sameEnds(ends, x0 / px, y0 / px, x1 / px, y1 / px)) continue;
      path.moveTo(x0, y0);
      path.bezierCurveTo(mx, y0, mx, y1, x1, y1);
      continue;
    }
    // x(t) and y(t) are monotonic on [0, 1]: the part in the box is one parameter interval
    // (inverseX, inverseY)
    let a = 0;
    let b = 1;
    if (!(Math.min(x0, x1) >= left && Math.max(x0, x1) <= right)) {
      const span = x1 - x0;
      if (span === 0) continue; // a vertical link beside the box (one in it is inside in x)
      const ta = inverseX((left - x0) / span);
      const tb = inverseX((right - x0) / span);
      a = span > 0 ? ta : tb;
      b = span > 0 ? tb : ta;
    }
    if (!(Math.min(y0, y1) >= top && Math.max(y0, y1) <= bottom)) {
      const span = y1 - y0;
      if (span === 0) continue; // a horizontal link above or below the box
      const ta = inverseY((top - y0) / span);
      const tb = inverseY((bottom - y0) / span);
      a = Math.max(a, span > 0 ? ta : tb);
      b = Math.min(b, span > 0 ? tb : ta);
    }
    if (!(a < b)) continue;
    // the part between a and b: control points at the blossom's (a,a,a), (a,a,b), (a,b,b),
    // (b,b,b) (de Casteljau with a parameter per level), x on (x0, m, m, x1), y on (y0, y0, y1, y1)
    points[0] = blossom(x0, mx, mx, x1, a, a, a);
    points[1] = blossom(y0, y0, y1, y1, a, a, a);
    points[2] = blossom(x0, mx, mx, x1, a, a, b);
    points[3] = blossom(y0, y0, y1, y1, a, a, b);
    points[4] = blossom(x0, mx, mx, x1, a, b, b);
    points[5] = blossom(y0, y0, y1, y1, a, b, b);
    points[6] = blossom(x0, mx, mx, x1, b, b, b);
    points[7] = blossom(y0, y0, y1, y1, b, b, b);
    if (px > 0) {
      // control points within a pixel of another part's: so is every point of the curve (a
      // weighted mean of its control points, with the same weights)
      let same = true;
      for (let i = 0; i < 8; i++) {
        const q = Math.round(points[i] / px);
        same &&= q === last[i];
        last[i] = q;
      }
      // a fan's links come one after another: most parts repeat the one before (no key to build)
      if (same) continue;
      const key = last.join(",");
      if (cut.has(key)) continue;
      cut.add(key);
    }
    path.moveTo(points[0], points[1]);
    path.bezierCurveTo(points[2], points[3], points[4], points[5], points[6], points[7]);
  }
  return path;
}

/** Whether the four values round as `last` holds, which then holds them rounded.
 * @param {Float64Array} last @param {number} a @param {number} b @param {number} c @param {number} d */
function sameEnds(last, a, b, c, d) {
  const qa = Math.round(a);
  const qb = Math.round(b);
  const qc = Math.round(c);
  const qd = Math.round(d);
  const same = qa === last[0] && qb === last[1] && qc === last[2] && qd === last[3];
  last[0] = qa;
  last[1] = qb;
  last[2] = qc;
  last[3] = qd;
  return same;
}

/**
 * The blossom (polar form) of the cubic with control values v0…v3 at (u, v, w): de Casteljau
 * with u, v and w at its three levels. At (a, a, a) it is the curve's value at a; the part of
 * the curve between a and b has control values at (a,a,a), (a,a,b), (a,b,b) and (b,b,b).
 * @param {number} v0 @param {number} v1 @param {number} v2 @param {number} v3
 * @param {number} u @param {number} v @param {number} w
 */
function blossom(v0, v1, v2, v3, u, v, w) {
  const a0 = v0 + (v1 - v0) * u;
  const a1 = v1 + (v2 - v1) * u;
  const a2 = v2 + (v3 - v2) * u;
  const b0 = a0 + (a1 - a0) * v;
  const b1 = a1 + (a2 - a1) * v;
  return b0 + (b1 - b0) * w;
}

/*
 * Both coordinates of a link are `v0 + (v1 − v0)·g(t)` with g monotonic from 0 to 1, so the
 * parameter interval where a coordinate lies in [lo, hi] is where g lies between the bounds'
 * fractions, found in closed form (this runs for thousands of links a painting):
 * - x, control points (v0, m, m, v1) with m the middle: g(t) = t³ − 1.5t² + 1.5t, whose inverse
 *   is t = ½ − sinh(asinh(2 − 4g) / 3) (Cardano's one real root of a depressed cubic);
 * - y, control points (v0, v0, v1, v1): g(t) = 3t² − 2t³ (smoothstep), whose inverse is
 *   t = ½ − sin(asin(1 − 2g) / 3).
 */

/** t where a link's x has gone the fraction `g` of its way (clamped to [0, 1]) @param {number} g */
export function inverseX(g) {
  const c = g < 0 ? 0 : g > 1 ? 1 : g;
  return 0.5 - Math.sinh(Math.asinh(2 - 4 * c) / 3);
}

/** t where a link's y has gone the fraction `g` of its way (clamped to [0, 1]) @param {number} g */
export function inverseY(g) {
  const c = g < 0 ? 0 : g > 1 ? 1 : g;
  return 0.5 - Math.sin(Math.asin(1 - 2 * c) / 3);
}
