// Navigation keeps its target in view: hot path, expanding a glyph, search ▶ and the keyboard
// bring what they act on into the picture, at a readable zoom where they step to one node.
import { afterEach, describe, expect, test } from "vitest";
import { decodeTable } from "../../../src/cct/data/decode.js";
import { realProfile } from "../../support/fixtures.js";
import { mountRenderer } from "../../support/mount.js";

const W = 900;
const H = 500;

async function mount() {
  const table = decodeTable(await realProfile("caliper-sw4-cuda"));
  const inc = table.metrics.find((m) => m.kind === "inclusive").name;
  return mountRenderer(table, { width: W, height: H, state: { colorBy: inc, sizeBy: inc, foldToFit: false } });
}
const inView = (renderer, id) => {
  const p = renderer.screenPosition(id);
  return p !== null && p.x >= 0 && p.x <= W && p.y >= 0 && p.y <= H;
};
const button = (c, label) =>
  [...c.querySelectorAll(".cct-toolbar button")].find((b) => b.getAttribute("aria-label") === label);

describe("navigation keeps its target in view", () => {
  test("hot path: the whole path is in the picture, wherever the view was", async () => {
    const { container, renderer } = await mount();
    renderer.setTransform({ x: 4000, y: -3000, k: 4 }); // somewhere far off, zoomed in
    button(container, "From the focused node, open the child with the largest inclusive value, repeatedly").click();
    const path = [renderer.cursor];
    expect(path[0]).not.toBeNull();
    const table = decodeTable(await realProfile("caliper-sw4-cuda"));
    for (let id = path[0]; table.parent[id] >= 0; id = table.parent[id]) path.push(table.parent[id]);
    expect(path.length).toBeGreaterThan(3);
    for (const id of path) expect(inView(renderer, id)).toBe(true);
  });

  test("search ▶ steps to a match at a readable zoom", async () => {
    const { container, renderer } = await mount();
    renderer.setTransform({ x: 0, y: 0, k: 0.05 });
    renderer.setState({ search: "cudaLaunchKernel" });
    button(container, "Next match").click();
    expect(renderer.transform.k).toBeGreaterThanOrEqual(0.5); // rows ≥ 14 px apart
    expect(inView(renderer, renderer.cursor)).toBe(true);
  });

  test("expanding a glyph far off screen brings it and its children into view", async () => {
    const { container, renderer, table } = await mount();
    const node = [...table.parent.keys()].find((i) => i > 0 && table.parent.filter((q) => q === i).length > 3);
    renderer.setState({ collapsed: [node] });
    renderer.setTransform({ x: 9000, y: 9000, k: 2 });
    const glyph = container.querySelector(`path.cct-collapsed[data-id="${node}"]`);
    glyph.dispatchEvent(new MouseEvent("dblclick", { bubbles: true }));
    expect(renderer.state.collapsed).toEqual([]);
    const children = [...table.parent.keys()].filter((i) => table.parent[i] === node);
    for (const id of [node, ...children]) expect(inView(renderer, id)).toBe(true);
  });
});

describe("navigation glides, unless the user asks for reduced motion", () => {
  /** The page answers prefers-reduced-motion with `reduce` while it steps to a search match far off. */
  async function stepToMatch(/** @type {boolean} */ reduce) {
    window.matchMedia = (query) => ({ matches: reduce && query.includes("reduce"), media: query });
    const { container, renderer } = await mount();
    renderer.setTransform({ x: 0, y: 0, k: 0.05 });
    renderer.setState({ search: "cudaLaunchKernel" });
    button(container, "Next match").click();
    return renderer;
  }
  afterEach(() => {
    delete window.matchMedia;
  });
  /** Until the glide has ended: the zoom the same for 100 ms (a busy machine slows the frames). */
  const settle = async (/** @type {any} */ renderer) => {
    const sleep = () => new Promise((resolve) => setTimeout(resolve, 100));
    const start = renderer.transform.k;
    let last = Number.NaN;
    for (let i = 0; i < 50 && (renderer.transform.k !== last || last === start); i++) {
      last = renderer.transform.k;
      await sleep();
    }
  };

  test("search ▶ glides to its match: not there at once, there when the motion ends", async () => {
    const renderer = await stepToMatch(false);
    expect(renderer.transform.k).toBeLessThan(0.1); // the glide has only begun
    await settle(renderer);
    expect(renderer.transform.k).toBeGreaterThanOrEqual(0.5);
    expect(inView(renderer, renderer.cursor)).toBe(true);
  });

  test("with reduced motion it jumps", async () => {
    const renderer = await stepToMatch(true);
    expect(renderer.transform.k).toBeGreaterThanOrEqual(0.5);
    expect(inView(renderer, renderer.cursor)).toBe(true);
  });
});
