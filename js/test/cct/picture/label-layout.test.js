// Label placement in screen pixels: clear of labels, marks, the legends and the edges.
import { describe, expect, test } from "vitest";
import { layoutLabelSteps, layoutLabels } from "../../../src/cct/picture/label-layout.js";
import { cutText } from "../../../src/cct/picture/label-text.js";

const measure = (text) => [...text].length * 6;
const frame = { width: 400, height: 300, fontPx: 11, measure };

describe("label layout", () => {
  test("in slices (every 50 candidates, every 5000 marks) it places what it places at once", () => {
    const candidates = Array.from({ length: 120 }, (_, i) => ({
      key: i,
      x: 20 + ((i * 37) % 360),
      y: 60 + ((i * 53) % 230),
      r: 3,
      text: `node ${i}`,
      leaf: i % 3 === 0,
    }));
    // a dense strip of marks along the top, the candidates below it
    const marks = Array.from({ length: 6000 }, (_, i) => ({ x: (i * 7) % 400, y: (i * 11) % 40, r: 0.5 }));
    const steps = layoutLabelSteps(candidates, marks, frame);
    let yields = 0;
    let step = steps.next();
    for (; !step.done; step = steps.next()) yields++;
    expect(yields).toBe(3); // after 5000 marks, after 50 and 100 candidates
    expect(step.value).toEqual(layoutLabels(candidates, marks, frame));
    expect(step.value.length).toBeGreaterThan(5);
  });

  test("a leaf's label goes right of its mark; an internal node's above it", () => {
    const placed = layoutLabels(
      [
        { key: 1, x: 100, y: 100, r: 4, text: "kernel", leaf: true },
        { key: 2, x: 200, y: 150, r: 4, text: "solve", leaf: false },
      ],
      [],
      frame,
    );
    expect(placed.map((p) => [p.key, p.dx > 0, Math.sign(p.dy)])).toEqual([
      [1, true, 0],
      [2, false, -1],
    ]);
  });

  test("no label covers another, a mark, a keep-out box (the legends) or the edge", () => {
    const c = { key: 1, x: 20, y: 20, r: 4, text: "main", leaf: false };
    // above and below are in the legends' box, left is off the picture: nothing fits
    const legends = { x0: 0, y0: 0, x1: 200, y1: 60 };
    expect(layoutLabels([c], [], { ...frame, keepOut: [legends] })).toEqual([]);
    // a mark right where the leaf label would go
    const leaf = { key: 2, x: 100, y: 200, r: 4, text: "leaf", leaf: true };
    expect(layoutLabels([leaf], [{ x: 115, y: 200, r: 3 }], frame)).toEqual([]);
    // two leaves on the same row: the first one wins
    const a = { key: 3, x: 100, y: 250, r: 4, text: "aaaaaaaaaaaaaaaa", leaf: true };
    const b = { key: 4, x: 130, y: 252, r: 4, text: "bbbb", leaf: true };
    expect(layoutLabels([a, b], [], frame).map((p) => p.key)).toEqual([3]);
    // at the right edge, a label is cut to fit
    const edge = { key: 5, x: 330, y: 120, r: 4, text: "a_rather_long_function_name", leaf: true };
    const [cut] = layoutLabels([edge], [], frame);
    expect(cut.text.endsWith("…")).toBe(true);
    expect(cut.box.x1).toBeLessThanOrEqual(399);
  });

  test("cut labels keep the start of the name, at least four characters, and a collapsed count", () => {
    expect(cutText("TIME_STEPPING", 8)).toBe("TIME_ST…");
    expect(cutText("Force_tt (+3)", 5)).toBe("Forc… (+3)");
    // a share goes first: a whole name says more
    expect(cutText("TIME_STEPPING 42%", 14)).toBe("TIME_STEPPING");
    expect(cutText("TIME_STEPPING 42%", 10)).toBe("TIME_STEP…");
    expect(cutText("Force_tt (+3) 7.5%", 13)).toBe("Force_tt (+3)");
    expect(cutText("Force_tt (+3) 7.5%", 8)).toBe("Forc… (+3)");
    expect(cutText("short", 10)).toBe("short");
    expect(cutText("😀😀😀😀😀😀", 4)).toBe("😀😀😀😀…"); // code points, never half an emoji
  });
});
