// Where the pinned spread box (the selected node's spread, hover.js `createPin`) goes in the
// stage: the corner where it covers the fewest node marks and labels, never the selected node,
// and the legends only where every other corner is worse. Scaled down to at most half the stage,
// so that a node is inside one corner's box at most.

/** @typedef {{ x0: number, y0: number, x1: number, y1: number, weight?: number }} Box screen
 * pixels; `weight`: what covering it costs (1 unless set) */

const INSET = 8;

/**
 * The corner of a `W` × `H` stage for a `w` × `h` box that covers the least of `boxes`: bottom
 * left (where it always was) unless another costs less (then bottom right, top left, top right).
 * Where every corner covers something, the box shrinks (to 80 %, then 65 %) while that helps.
 * The top corners are `below` the stage's top (legends on top: under them).
 * @param {{ W: number, H: number, w: number, h: number, boxes: Box[], below?: number }} p
 * @returns {{ left: number, top: number, scale: number }}
 */
export function pinCorner({ W, H, w, h, boxes, below = 0 }) {
  const fits = Math.max(0.25, Math.min(1, (W / 2 - INSET) / w, ((H - below) / 2 - INSET) / h));
  let best = { left: 0, top: 0, scale: fits };
  let least = Number.POSITIVE_INFINITY;
  for (const scale of [fits, fits * 0.8, fits * 0.65]) {
    for (let i = 0; i < 4 && least > 0; i++) {
      const left = i % 2 ? Math.max(INSET, W - INSET - w * scale) : INSET;
      const top = i < 2 ? Math.max(below + INSET, H - INSET - h * scale) : below + INSET;
      let cost = 0;
      for (const b of boxes)
        if (left < b.x1 && b.x0 < left + w * scale && top < b.y1 && b.y0 < top + h * scale) cost += b.weight ?? 1;
      if (cost < least) {
        least = cost;
        best = { left, top, scale };
      }
    }
  }
  return best;
}

/**
 * Puts the pinned element (shown) in the corner where it covers the least of what is drawn: the
 * node marks in view, their labels, the legends (as 50 marks) and the selected node (at any cost).
 * @param {HTMLElement} el
 * @param {{ camera: import("../../input/camera.js").Camera, marks: import("../../picture/scene.js").NodeMark[],
 *   labels: import("../../picture/label-layout.js").LabelMark[], measure: (text: string) => number, labelPx: number,
 *   legends: Box, onTop: boolean, selected: number }} drawn `onTop`: the legends are a row on top (the
 *   top corners are under it); `selected`: the item key of the selected node (-1: none drawn)
 */
export function placePin(el, { camera, marks, labels, measure, labelPx, legends, onTop, selected }) {
  const { width: W, height: H } = camera.size;
  /** @type {Box[]} */
  const boxes = [{ ...legends, weight: 50 }];
  /** a box `dx0`…`dx1`, `dy` ± `half` from layout point (x, y) */
  const add = (/** @type {number[]} */ [x, y, dx0, dx1, dy, half], weight = 1) => {
    const sx = camera.toScreenX(x);
    const sy = camera.toScreenY(y) + dy;
    boxes.push({ x0: sx + dx0, x1: sx + dx1, y0: sy - half, y1: sy + half, weight });
  };
  for (const m of marks) {
    const pad = m.key === selected ? m.r + 6 : m.r;
    add([m.x, m.y, -pad, pad, 0, pad], m.key === selected ? 1e6 : 1);
  }
  for (const l of labels) {
    const dx = l.dx ?? l.r + 4;
    add([l.x, l.y, dx, dx + measure(l.text), l.dy ?? 0, labelPx / 2]);
  }
  const p = pinCorner({ W, H, w: el.offsetWidth, h: el.offsetHeight, boxes, below: onTop ? legends.y1 : 0 });
  el.style.left = `${p.left}px`;
  el.style.top = `${p.top}px`;
  el.style.bottom = "auto";
  el.style.transform = p.scale < 1 ? `scale(${p.scale})` : "";
}
