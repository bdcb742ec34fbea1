// The view keeps its place: a keyboard cursor move does not take the camera from the fit (the
// view still follows a resize), and a collapse refits a fitted view or keeps the node where it
// was in a zoomed one.
import { afterEach, describe, expect, test } from "vitest";
import { randomTree } from "../../support/fixtures.js";
import { mountRenderer } from "../../support/mount.js";

const key = (c, k) =>
  c.querySelector(".cct-stage").dispatchEvent(new KeyboardEvent("keydown", { key: k, bubbles: true }));
/** The ids of the nodes drawn outside a `w` × `h` view. */
const outside = (renderer, table, w, h) => {
  const out = [];
  for (let id = 0; id < table.total; id++) {
    const p = renderer.screenPosition(id);
    if (p && (p.x < 0 || p.x > w || p.y < 0 || p.y > h)) out.push(id);
  }
  return out;
};

describe("a cursor move keeps the view following resizes", () => {
  test("after arrow keys, narrowing the view refits the whole tree", () => {
    const { container, renderer, table } = mountRenderer(randomTree(34), { width: 900, height: 500 });
    for (const k of ["ArrowDown", "ArrowRight", "ArrowRight", "ArrowRight", "ArrowDown"]) key(container, k);
    expect(renderer.cursor).not.toBeNull();
    renderer.resize(640, 500);
    expect(outside(renderer, table, 640, 500)).toEqual([]);
  });
});

describe("a collapse keeps the view's place", () => {
  const node = (c, id) => c.querySelector(`.cct-node[data-id="${id}"]`);
  const dblclick = (el) => el.dispatchEvent(new MouseEvent("dblclick", { bubbles: true }));
  /** The node of the random tree with the most descendants below the roots' level. */
  const bigSubtree = (table) => {
    const size = new Array(table.total).fill(1);
    for (let id = table.total - 1; id > 0; id--) size[table.parent[id]] += size[id];
    return [...size.keys()].filter((id) => table.parent[id] >= 0).sort((a, b) => size[b] - size[a])[0];
  };

  test("in a fitted view, a double-click collapse refits the smaller tree", () => {
    const { container, renderer, table } = mountRenderer(randomTree(34), { width: 900, height: 500 });
    const id = bigSubtree(table);
    dblclick(node(container, id));
    expect(renderer.state.collapsed).toEqual([id]);
    const after = renderer.transform;
    renderer.fitToView();
    expect(renderer.transform.k).toBeCloseTo(after.k, 6);
    expect(renderer.transform.x).toBeCloseTo(after.x, 6);
    expect(renderer.transform.y).toBeCloseTo(after.y, 6);
  });

  test("the refit glides as navigation does", async () => {
    window.matchMedia = (query) => ({ matches: false, media: query });
    const { container, renderer, table } = mountRenderer(randomTree(34), { width: 900, height: 500 });
    const id = bigSubtree(table);
    const start = renderer.transform;
    dblclick(node(container, id));
    expect(renderer.transform.k).toBeCloseTo(start.k, 6); // the glide has only begun
    await new Promise((resolve) => setTimeout(resolve, 700));
    const after = renderer.transform;
    expect(after.k).not.toBeCloseTo(start.k, 3);
    renderer.fitToView();
    expect(renderer.transform.k).toBeCloseTo(after.k, 6);
  });
  afterEach(() => {
    delete window.matchMedia;
  });

  test("with reduced motion the refit jumps", () => {
    window.matchMedia = (query) => ({ matches: query.includes("reduce"), media: query });
    const { container, renderer, table } = mountRenderer(randomTree(34), { width: 900, height: 500 });
    const start = renderer.transform;
    dblclick(node(container, bigSubtree(table)));
    const after = renderer.transform;
    expect(after.k).not.toBeCloseTo(start.k, 3); // fitted at once
    renderer.fitToView();
    expect(renderer.transform).toEqual(after);
  });

  test("Enter collapses the cursor's node and refits too", () => {
    const { container, renderer, table } = mountRenderer(randomTree(34), { width: 900, height: 500 });
    const id = bigSubtree(table);
    renderer.dispatch({ type: "cursor", id, reveal: false });
    key(container, "Enter");
    expect(renderer.state.collapsed).toEqual([id]);
    const after = renderer.transform;
    renderer.fitToView();
    expect(renderer.transform).toEqual(after);
  });

  test("in a zoomed view, the collapsed node stays where it was, at the same zoom", () => {
    const { container, renderer, table } = mountRenderer(randomTree(34), { width: 900, height: 500 });
    const id = bigSubtree(table);
    renderer.setTransform({ x: 0, y: 0, k: 2 });
    const p = renderer.screenPosition(id);
    // the node near the left edge (where navigation's reveal would pan it in)
    renderer.setTransform({ x: 10 - p.x, y: 250 - p.y, k: 2 });
    const before = renderer.screenPosition(id);
    expect(before.x).toBeCloseTo(10, 6);
    dblclick(node(container, id));
    expect(renderer.state.collapsed).toEqual([id]);
    const after = renderer.screenPosition(id);
    expect(renderer.transform.k).toBe(2);
    expect(after.x).toBeCloseTo(before.x, 6);
    expect(after.y).toBeCloseTo(before.y, 6);
  });
});
