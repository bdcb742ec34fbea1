// A new structure (collapse, expand) places the view's labels where the camera ends — not also
// where the old zoom showed it, nor again for the search's unchanged matches — and they are the
// labels a view drawn with that structure from the start has.
import { expect, test, vi } from "vitest";
import * as viewLabelsModule from "../../../src/cct/picture/view-labels.js";
import { randomTree } from "../../support/fixtures.js";
import { LABELS_AT_ONCE, mountRenderer, TIME } from "../../support/mount.js";

vi.mock("../../../src/cct/picture/view-labels.js", async (original) => {
  const m = /** @type {typeof viewLabelsModule} */ (await original());
  return { ...m, viewLabelSteps: vi.fn(m.viewLabelSteps) };
});
const placed = /** @type {import("vitest").Mock} */ (viewLabelsModule.viewLabelSteps);
const texts = (/** @type {HTMLElement} */ c) => [...c.querySelectorAll(".cct-labels text")].map((t) => t.textContent);

test("a collapse and an expand place the labels as a fresh view would, once per camera move", () => {
  const spec = randomTree(300, 7);
  const whole = { ...TIME, foldToFit: false };
  const { container, renderer, table } = mountRenderer(spec, { state: whole, layout: LABELS_AT_ONCE });
  // the node with the most children
  const count = new Map();
  for (const p of table.parent) if (p >= 0) count.set(p, (count.get(p) ?? 0) + 1);
  const big = table.idOf([...count].reduce((a, b) => (b[1] > a[1] ? b : a))[0]);
  for (const [collapsed, times] of /** @type {const} */ ([
    [[big], 2],
    [[], 3],
  ])) {
    placed.mockClear();
    renderer.dispatch({ type: "collapse", id: big });
    expect(renderer.state.collapsed).toEqual(collapsed);
    // kept where it was, then refitted (collapse: this view is fitted) or its children brought
    // into view (expand: the camera's move, then the reveal's own)
    expect(placed).toHaveBeenCalledTimes(times);
    const fresh = mountRenderer(spec, { state: { ...whole, collapsed }, layout: LABELS_AT_ONCE });
    fresh.renderer.setTransform(renderer.transform); // the same view of the same structure
    expect(texts(container)).toEqual(texts(fresh.container));
    expect(texts(container).length).toBeGreaterThan(0);
  }
});
