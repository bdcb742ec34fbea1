// The pinned spread box of a selected node keeps off the tree: in the corner of the stage that
// covers the fewest node marks and labels, never over the selected node.
import { describe, expect, test } from "vitest";
import { decodeTable } from "../../../../src/cct/data/decode.js";
import { pinCorner } from "../../../../src/cct/draw/labels/pin-place.js";
import { randomTree } from "../../../support/fixtures.js";
import { LABELS_AT_ONCE, newRenderer } from "../../../support/mount.js";

const W = 560;
const H = 560;
const spread = { count: 4, min: 1, mean: 2, max: 4, std: 1, atMax: "rank 3", over: "rank", quantiles: [1, 2, 3, 4] };
const meets = (a, b) => a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;

/** A 560 px view of a crowded tree, the pinned box 220 × 110 as a browser sizes it. */
function mount() {
  const container = document.body.appendChild(document.createElement("div"));
  const renderer = newRenderer(container, {
    width: W,
    height: H,
    onSpread: () => Promise.resolve(spread),
    layout: LABELS_AT_ONCE,
  });
  const table = decodeTable({ ...randomTree(60, 7), reducer: "mean" });
  renderer.setState({ colorBy: "time", sizeBy: "time (inc)", foldToFit: false });
  renderer.setData(table);
  const pinned = container.querySelector(".cct-pinned");
  Object.defineProperties(pinned, { offsetWidth: { value: 220 }, offsetHeight: { value: 110 } });
  return { container, renderer, table, pinned };
}
const boxOf = (pinned) => {
  const left = Number.parseFloat(pinned.style.left || "8");
  const top = pinned.style.top ? Number.parseFloat(pinned.style.top) : H - 8 - 110;
  return { x0: left, y0: top, x1: left + 220, y1: top + 110 };
};
/** The screen boxes of the node marks drawn, by id. */
const markBoxes = (container, renderer) =>
  new Map(
    [...container.querySelectorAll(".cct-nodes .cct-node[data-id]")].map((el) => {
      const id = Number(el.getAttribute("data-id"));
      const p = renderer.screenPosition(id);
      return [id, { x0: p.x - 9, y0: p.y - 9, x1: p.x + 9, y1: p.y + 9 }];
    }),
  );
const settle = async () => {
  for (let i = 0; i < 3; i++) await Promise.resolve();
};

describe("the pinned spread box keeps off the tree", () => {
  test("in a crowded 560 px view it covers no node mark", async () => {
    const { container, renderer, pinned } = mount();
    const marks = markBoxes(container, renderer);
    // a node in the middle of the tree: some corner is free of marks
    const id = [...marks.keys()].sort((a, b) => marks.get(a).y0 - marks.get(b).y0)[Math.floor(marks.size / 2)];
    renderer.command("select", [id]);
    await settle();
    expect(pinned.hidden).toBe(false);
    const box = boxOf(pinned);
    const covered = [...marks].filter(([, m]) => meets(box, m)).map(([i]) => i);
    expect(covered).toEqual([]);
  });

  test("never over the selected node, wherever it is", async () => {
    const { container, renderer, pinned } = mount();
    const marks = markBoxes(container, renderer);
    for (const id of marks.keys()) {
      renderer.command("select", [id]);
      await settle();
      expect(meets(boxOf(pinned), marks.get(id))).toBe(false);
    }
  });

  test("the corner: bottom left unless another covers less; half the stage at most", () => {
    expect(pinCorner({ W: 500, H: 400, w: 200, h: 100, boxes: [] })).toEqual({ left: 8, top: 292, scale: 1 });
    const bottomLeft = { x0: 0, y0: 300, x1: 100, y1: 400 };
    expect(pinCorner({ W: 500, H: 400, w: 200, h: 100, boxes: [bottomLeft] })).toEqual({
      left: 292,
      top: 292,
      scale: 1,
    });
    const selected = { x0: 400, y0: 380, x1: 410, y1: 390, weight: 1e6 };
    const crowd = [bottomLeft, { x0: 0, y0: 0, x1: 100, y1: 100 }, { ...bottomLeft }];
    // the selected node's corner (bottom right) is the emptiest but for it: the next emptiest
    expect(pinCorner({ W: 500, H: 400, w: 200, h: 100, boxes: [...crowd, selected] })).toEqual({
      left: 292,
      top: 8,
      scale: 1,
    });
    // legends on top: the top corners are under them
    expect(
      pinCorner({
        W: 500,
        H: 400,
        w: 200,
        h: 100,
        boxes: [bottomLeft, { ...bottomLeft, x0: 300, x1: 500 }],
        below: 40,
      }),
    ).toEqual({
      left: 8,
      top: 48,
      scale: 1,
    });
    // every corner covers a node at full size: smaller, where that frees one
    const corners = [
      { x0: 200, y0: 390, x1: 205, y1: 395 },
      { x0: 300, y0: 390, x1: 305, y1: 395 },
      { x0: 200, y0: 10, x1: 205, y1: 15 },
      { x0: 300, y0: 10, x1: 305, y1: 15 },
    ];
    expect(pinCorner({ W: 500, H: 400, w: 200, h: 100, boxes: corners })).toEqual({ left: 8, top: 312, scale: 0.8 });
    const small = pinCorner({ W: 300, H: 200, w: 260, h: 120, boxes: [] });
    expect(small.scale).toBeCloseTo((150 - 8) / 260); // the narrower side: half the width
    expect(small.left + 260 * small.scale).toBeLessThanOrEqual(150);
  });
});
