import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { decodeTable } from "../../../../src/cct/data/decode.js";
import { payload, randomTree, smallTree } from "../../../support/fixtures.js";
import { mountRenderer, newRenderer, TIME } from "../../../support/mount.js";

// jsdom has no canvas: a fake 2D context that records what the last paint drew.
// (Each vitest file has its own jsdom, so the stub does not leak into other files.)
let painted;
/** How many times a frame was shown from the last full painting (the cache of moves). */
let copies;
/** How many paintings of the view's canvas began (each clears it first). */
let clears;
beforeEach(() => {
  painted = { fills: 0, fillStyles: [], strokes: 0 };
  copies = 0;
  clears = 0;
  // the view's canvas records what it paints; other canvases (the frame cache, pattern tiles) do not
  function context(canvas) {
    const own = canvas.classList.contains("cct-canvas");
    const ctx = {
      setTransform() {},
      clearRect() {
        if (!own) return;
        painted = { fills: 0, fillStyles: [], strokes: 0 };
        clears++;
      },
      beginPath() {},
      arc() {},
      fill(/** @type {any} */ path) {
        if (!own) return;
        // a dense fan's links filled as one region (link-wedges.js): a batch of links, not a mark
        if (path?.wedges) {
          painted.strokes++;
          return;
        }
        painted.fills++;
        painted.fillStyles.push(ctx.fillStyle);
      },
      stroke() {
        if (own) painted.strokes++;
      },
      setLineDash() {},
      createPattern: () => "hatch-pattern",
      fillRect() {},
      moveTo() {},
      lineTo() {},
      drawImage() {
        if (own) copies++;
      },
    };
    return ctx;
  }
  const contexts = new WeakMap();
  HTMLCanvasElement.prototype.getContext = function getContext() {
    if (!contexts.has(this)) contexts.set(this, context(this));
    return contexts.get(this);
  };
  globalThis.Path2D = class {
    moveTo() {}
    lineTo() {}
    arc() {}
    bezierCurveTo() {}
    closePath() {
      this.wedges = true; // only a wedge's region is closed
    }
  };
  globalThis.requestAnimationFrame = (f) => setTimeout(f, 0);
});

afterEach(() => {
  vi.restoreAllMocks();
});

const nextFrame = () => new Promise((resolve) => setTimeout(resolve, 5));
/** Frames until the canvas has painted everything (a painting spreads over frames past 40 ms of
 * work: on a loaded machine, even in jsdom). */
async function paintedAll(container) {
  for (let i = 0; i < 400 && !container.querySelector("canvas.cct-canvas[data-node-count]"); i++) await nextFrame();
}

const mount = (spec, state) => mountRenderer(spec, { state: { ...TIME, ...state } });

/** `id`: a node id, or `{ fold: parentId }` for a level-of-detail fold */
function pointerAt(container, renderer, id, type = "pointermove", init = {}) {
  const { x, y } = typeof id === "number" ? renderer.screenPosition(id) : renderer.foldPosition(id.fold);
  const target = container.querySelector("svg.cct-overlay");
  target.dispatchEvent(new MouseEvent(type, { bubbles: true, clientX: x, clientY: y, ...init }));
}

describe("canvas backend", () => {
  test("auto switches to canvas above the SVG limit and paints every node in view", async () => {
    const { container, renderer } = mount(randomTree(5000), { foldToFit: false });
    expect(renderer.backend).toBe("canvas");
    expect(container.querySelectorAll("circle.cct-node").length).toBe(0);
    await paintedAll(container);
    const canvas = container.querySelector("canvas.cct-canvas");
    expect(canvas.getAttribute("data-node-count")).toBe("5000");
    expect(Number(canvas.dataset.painted)).toBe(5000); // fit to view: all in view
    expect(painted.fills).toBe(5000);
  });

  test("auto stays on canvas for the same tree when fewer nodes are drawn; other data starts on SVG", async () => {
    const { container, renderer } = mount(randomTree(5000), { foldToFit: false });
    expect(renderer.backend).toBe("canvas");
    const canvas = container.querySelector("canvas.cct-canvas");
    // collapse the first root's children: a few nodes are left, on the same canvas
    const table = decodeTable(randomTree(5000));
    const children = [];
    for (let row = 1; row < table.size; row++) if (table.parent[row] === 0) children.push(table.idOf(row));
    renderer.setState({ collapsed: children });
    expect(renderer.state.collapsed.length).toBe(children.length);
    expect(renderer.backend).toBe("canvas");
    expect(container.querySelector("canvas.cct-canvas")).toBe(canvas); // not made again
    await paintedAll(container);
    const drawn = Number(canvas.getAttribute("data-node-count"));
    expect(drawn).toBeGreaterThan(0);
    expect(drawn).toBeLessThan(4000); // "auto" alone would have chosen SVG
    expect(container.querySelectorAll("circle.cct-node").length).toBe(0);
    // other data: chosen afresh by its size
    renderer.setData(decodeTable(smallTree()));
    expect(renderer.backend).toBe("svg");
    expect(container.querySelectorAll("circle.cct-node").length).toBeGreaterThan(0);
  });

  test("a first picture folded to fit is laid out and drawn once, folded: no canvas for 5,000 nodes", () => {
    const { container, renderer } = mount(randomTree(5000)); // fold_to_fit: the default
    // a first table of 5,000 rows is drawn in the tasks after setData; reading the backend draws it
    expect(renderer.backend).toBe("svg");
    expect(renderer.state.collapsed.length).toBeGreaterThan(0);
    expect(container.querySelector("canvas")).toBeNull(); // never drawn whole, not even once
    const drawn = container.querySelectorAll("circle.cct-node").length;
    expect(drawn).toBeGreaterThan(0);
    expect(drawn).toBeLessThan(4000);
  });

  test("while a zoom is under way frames show the last painting moved; its end paints again", async () => {
    const { container, renderer } = mount(randomTree(5000), { foldToFit: false });
    await paintedAll(container);
    const full = painted.fills;
    expect(full).toBeGreaterThan(1000);
    const k = renderer.transform.k;
    const svg = container.querySelector("svg.cct-overlay");
    svg.dispatchEvent(new WheelEvent("wheel", { bubbles: true, cancelable: true, deltaY: -100 }));
    await nextFrame();
    expect(renderer.transform.k).toBeGreaterThan(k);
    expect(copies).toBe(1); // one copy of the last painting, no marks painted
    expect(painted.fills).toBe(0);
    // d3-zoom ends a wheel gesture 150 ms after its last event
    await new Promise((resolve) => setTimeout(resolve, 200));
    for (let i = 0; i < 100 && painted.fills === 0; i++) await nextFrame();
    expect(painted.fills).toBeGreaterThan(0);
    expect(copies).toBe(1);
    // a move that is not a gesture (a fit, a jump) paints fully at once
    renderer.setTransform({ x: 10, y: 10, k: 0.5 });
    await nextFrame();
    for (let i = 0; i < 100 && painted.fills === 0; i++) await nextFrame();
    expect(copies).toBe(1);
    expect(painted.fills).toBeGreaterThan(0);
  });

  test("a long painting goes on over several frames, and only then counts as drawn", async () => {
    let clock = 0;
    vi.spyOn(performance, "now").mockImplementation(() => (clock += 25)); // each step "takes" 25 ms
    const { container, renderer } = mount(randomTree(5000), { foldToFit: false });
    // drawn whole, 5,000 nodes are drawn in the tasks after setData (later.js); asking draws them
    expect(renderer.backend).toBe("canvas");
    const canvas = container.querySelector("canvas.cct-canvas");
    await nextFrame();
    expect(canvas.hasAttribute("data-node-count")).toBe(false); // a step or two per frame
    const partial = painted.fills;
    let frames = 1;
    while (!canvas.hasAttribute("data-node-count") && frames < 100) {
      await nextFrame();
      frames++;
    }
    expect(frames).toBeGreaterThan(3);
    expect(canvas.dataset.nodeCount).toBe("5000");
    expect(painted.fills).toBe(Number(canvas.dataset.painted));
    expect(painted.fills).toBeGreaterThan(partial);
  });

  /**
   * Frames run one at a time, each with its time as a browser passes it, every step of painting
   * "taking" `stepMs`; the 5,000-node tree drawn whole with them, painted to the end.
   * @param {number} stepMs
   */
  async function paintedInFrames(stepMs) {
    let clock = 0;
    vi.spyOn(performance, "now").mockImplementation(() => (clock += stepMs));
    /** @type {((now: number) => void)[]} */
    let queue = [];
    globalThis.requestAnimationFrame = (f) => queue.push(f);
    let time = 0;
    const frame = () => {
      const due = queue;
      queue = [];
      time += 16;
      for (const f of due) f(time);
    };
    const { container, renderer } = mount(randomTree(5000), { foldToFit: false });
    for (let i = 0; i < 400 && !container.querySelector("canvas.cct-canvas[data-node-count]"); i++) {
      frame();
      await new Promise((r) => setTimeout(r, 0)); // tasks between frames (later.js)
    }
    expect(container.querySelector("canvas.cct-canvas")?.getAttribute("data-node-count")).toBe("5000");
    return { renderer, frame, table: decodeTable(randomTree(5000)) };
  }

  test("a painting of new content starts with the shortest slice; the same content at a new zoom does not", async () => {
    const { renderer, frame, table } = await paintedInFrames(1);
    // new links (a collapse): its first frame strokes the few batches of a 2 ms slice
    const leaf = table.idOf(table.size - 1);
    renderer.setState({ collapsed: [table.idOf(table.parent[table.size - 1])] });
    frame();
    const first = painted.strokes;
    expect(first).toBeGreaterThan(0);
    expect(first).toBeLessThanOrEqual(3); // started, then two 1 ms steps: past 2 ms
    for (let i = 0; i < 50 && painted.strokes < 20; i++) frame();
    expect(painted.strokes).toBeGreaterThanOrEqual(20); // the painting went on: 25 batches of links
    expect(renderer.screenPosition(leaf)).toBeNull(); // folded away
    // the same marks and links at another zoom: a slice as long as the rasteriser allows
    renderer.setTransform({ ...renderer.transform, k: renderer.transform.k * 1.01 });
    frame();
    expect(painted.strokes).toBeGreaterThan(first);
  });

  test("the same content at a zoom far from the last painting's starts with the shortest slice", async () => {
    const { renderer, frame } = await paintedInFrames(1);
    // a little zoom: the slice the rasteriser allows (the whole painting of a few dozen batches)
    const canvas = document.querySelector("canvas.cct-canvas");
    canvas.removeAttribute("data-painted");
    renderer.setTransform({ ...renderer.transform, k: renderer.transform.k * 1.5 });
    frame();
    const near = painted.strokes;
    expect(near).toBeGreaterThan(3);
    for (let i = 0; i < 400 && !canvas.hasAttribute("data-painted"); i++) frame(); // painted
    // 8× out (a glide from a node out to the whole tree): what was learnt there says little
    renderer.setTransform({ ...renderer.transform, k: renderer.transform.k / 8 });
    frame();
    expect(painted.strokes).toBeGreaterThan(0);
    expect(painted.strokes).toBeLessThanOrEqual(3); // started, then two 1 ms steps: past 2 ms
  });

  test("one slice of painting a frame: a new painting waits while one under way took the frame", async () => {
    const { renderer, frame, table } = await paintedInFrames(25);
    // a painting of new content under way, then a jump before its next slice
    renderer.setState({ collapsed: [table.idOf(table.parent[table.size - 1])] });
    frame();
    const begun = clears;
    expect(begun).toBeGreaterThan(0);
    renderer.setTransform({ ...renderer.transform, x: renderer.transform.x + 40 });
    frame(); // the old painting's slice, and the jump's new painting: it waits
    expect(clears).toBe(begun);
    frame(); // its own frame
    expect(clears).toBe(begun + 1);
  });

  test("small trees stay SVG under auto, and canvas can be forced", () => {
    expect(mount(smallTree()).renderer.backend).toBe("svg");
    expect(mount(smallTree(), { backend: "canvas" }).renderer.backend).toBe("canvas");
  });

  test("missing values are painted with the hatch pattern", async () => {
    const { container } = mount(smallTree(), { backend: "canvas" });
    // painted to its end (a painting of new content starts with a short slice: maybe two frames)
    await paintedAll(container);
    expect(painted.fillStyles.filter((s) => s === "hatch-pattern").length).toBe(1);
  });

  test("hover finds the node under the pointer through the quadtree", () => {
    const { container, renderer } = mount(smallTree(), { backend: "canvas" });
    pointerAt(container, renderer, 2);
    expect(container.querySelector(".cct-tooltip-name").textContent).toBe("kernel_a");
    expect(container.querySelector("circle.cct-hovered").getAttribute("data-id")).toBe("2");
    const svg = container.querySelector("svg.cct-overlay");
    svg.dispatchEvent(new MouseEvent("pointermove", { bubbles: true, clientX: 5000, clientY: 5000 }));
    expect(container.querySelector(".cct-tooltip").hidden).toBe(true);
  });

  test("click and shift-click select, with rings on the overlay", () => {
    const { container, renderer, selections } = mount(smallTree(), { backend: "canvas" });
    pointerAt(container, renderer, 1, "click");
    pointerAt(container, renderer, 4, "click", { shiftKey: true });
    expect(selections).toEqual([[1], [1, 4]]);
    const rings = [...container.querySelectorAll("circle.cct-selected")].map((c) => c.getAttribute("data-id"));
    expect(rings.sort()).toEqual(["1", "4"]);
  });

  test("the selection's ring circles the mark, outside it, so the node keeps its colour", () => {
    const { container, renderer } = mount(smallTree(), { backend: "canvas" });
    renderer.setSelection([3]);
    pointerAt(container, renderer, 3); // the hover ring: on the mark's edge
    const ring = container.querySelector('circle.cct-ring.cct-selected[data-id="3"]');
    const hovered = container.querySelector('circle.cct-ring.cct-hovered[data-id="3"]');
    expect(ring.getAttribute("fill")).toBe("none");
    // rings are drawn in the zoomed content: 0.75 / k is their layer's stroke width
    const k = 0.75 / Number(ring.parentElement.getAttribute("stroke-width"));
    expect((Number(ring.getAttribute("r")) - Number(hovered.getAttribute("r"))) * k).toBeCloseTo(1.5, 6);
  });

  test("switching backend keeps the selection", () => {
    const { container, renderer } = mount(smallTree());
    renderer.setSelection([3]);
    renderer.setState({ backend: "canvas" });
    expect(renderer.backend).toBe("canvas");
    expect(container.querySelector("circle.cct-selected").getAttribute("data-id")).toBe("3");
    expect(container.querySelectorAll("svg.cct-svg").length).toBe(1);
  });

  test("an unknown backend is an error naming the accepted ones", () => {
    const { renderer } = mount(smallTree());
    expect(() => renderer.setState({ backend: "webgl" })).toThrow(
      /unknown backend "webgl"; accepted: auto, svg, canvas/,
    );
  });

  test("brush, keyboard and search marks work as with SVG", () => {
    const { container, renderer, selections } = mount(smallTree(), { backend: "canvas" });
    const svg = container.querySelector("svg.cct-overlay");
    container.querySelector('button[title="Select with a rectangle (shift adds)"]').click();
    const [a, b] = [renderer.screenPosition(2), renderer.screenPosition(3)];
    const at = (type, x, y) => svg.dispatchEvent(new MouseEvent(type, { bubbles: true, clientX: x, clientY: y }));
    at("pointerdown", a.x - 5, Math.min(a.y, b.y) - 5);
    at("pointermove", b.x + 5, Math.max(a.y, b.y) + 5);
    at("pointerup", b.x + 5, Math.max(a.y, b.y) + 5);
    expect(selections.at(-1).sort()).toEqual([2, 3]);
    const stage = container.querySelector(".cct-stage");
    const key = (k) => stage.dispatchEvent(new KeyboardEvent("keydown", { key: k, bubbles: true }));
    key("ArrowDown");
    key("ArrowRight");
    expect(renderer.cursor).toBe(1);
    expect(container.querySelector("circle.cct-cursor").getAttribute("data-id")).toBe("1");
    key(" ");
    expect(selections.at(-1)).toEqual([2, 3, 1]); // space toggles the cursor node in the selection
    renderer.setState({ search: "kernel" });
    const matches = [...container.querySelectorAll("circle.cct-match")].map((c) => c.getAttribute("data-id"));
    expect(matches.sort()).toEqual(["2", "3"]);
  });

  test("a fold row of level of detail answers a click through the quadtree", () => {
    const container = document.createElement("div");
    document.body.appendChild(container);
    const expanded = [];
    const renderer = newRenderer(container, { width: 900, height: 500, onLoadMore: (node) => expanded.push(node) });
    renderer.setState({ colorBy: "t", sizeBy: "t", backend: "canvas" });
    const spec = payload({
      parent: [-1, 0, 0],
      names: ["main", "f", "40 more"],
      metrics: { t: [1, 2, 30] },
      nodeId: [0, 7, -1],
      folded: [0, 0, 40],
      total: 42,
    });
    renderer.setData(decodeTable(spec));
    pointerAt(container, renderer, { fold: 0 }, "click");
    expect(expanded).toEqual([0]); // the node whose hidden children load: main
  });
});
