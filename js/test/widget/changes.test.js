// An ensemble's changes in the renderer and the table pane: rings on the nodes with a change
// (solid: own, dashed: in its callees; red up, blue down), keyed in the legend and in figures;
// the Changes tab's order and clicks; the glue that asks Python for them once a tree is drawn
// and shows the compare view of one in place of the tree.
import { afterEach, describe, expect, test, vi } from "vitest";
import { decodeTable } from "../../src/cct/data/decode.js";
import { RING_COLORS } from "../../src/cct/draw/svg/change-rings.js";
import { figureSVG } from "../../src/cct/figure/figure.js";
import { changeOrder, percent } from "../../src/cct/pane/changes-list.js";
import { createTablePane } from "../../src/cct/pane/table-pane.js";
import { bindChanges, ringsAdded } from "../../src/widget/changes.js";
import { createLodClient } from "../../src/widget/lod-client.js";
import { bindPane } from "../../src/widget/pane.js";
import { payload } from "../support/fixtures.js";
import { mountPane, mountRenderer } from "../support/mount.js";
import { mockModel } from "../support/widget-fakes.js";

afterEach(() => {
  document.body.replaceChildren();
  vi.restoreAllMocks();
});

const METRIC = "change % (time (inc))";
const STATE = { colorBy: "time", sizeBy: "time (inc)" };

/** main → (solve → kernel, io): kernel got 40 % slower itself, solve and main only through it;
 * io 20 % faster itself. `cause`: 0 none, 1 own, 2 in its callees. */
function ensembleTree(cause = [2, 2, 1, 0, 1]) {
  const base = payload({
    parent: [-1, 0, 1, 1, 0],
    names: ["main", "solve", "kernel", "other", "io"],
    metrics: {
      time: [1, 1, 6, 1, 2],
      "time (inc)": [11, 8, 6, 1, 2],
      [METRIC]: [25, 35, 40, 0, -20],
    },
    kinds: { time: "exclusive", "time (inc)": "inclusive", [METRIC]: "other" },
    partners: { time: "time (inc)", "time (inc)": "time" },
  });
  const column = new Int32Array(cause);
  return {
    ...base,
    changes: { metric: METRIC, cause: { dtype: "int32", length: 5, buffer: new DataView(column.buffer) } },
  };
}

const ring = (root, id) => root.querySelector(`.cct-change-rings [data-change="${id}"]`);

describe("change rings", () => {
  test("nodes with a change get a ring, only they: solid own, dashed in its callees, red up, blue down", () => {
    const { container } = mountRenderer(ensembleTree(), { state: STATE });
    const rings = container.querySelectorAll(".cct-change-ring");
    expect([...rings].map((r) => Number(r.getAttribute("data-change"))).sort()).toEqual([0, 1, 2, 4]);
    expect(ring(container, 3)).toBeNull();
    expect(ring(container, 2).classList.contains("cct-change-own")).toBe(true);
    expect(ring(container, 2).getAttribute("stroke-dasharray")).toBeNull();
    expect(ring(container, 1).classList.contains("cct-change-below")).toBe(true);
    expect(ring(container, 1).getAttribute("stroke-dasharray")).toMatch(/^[\d.]+ [\d.]+$/);
    expect(ring(container, 2).getAttribute("stroke")).toBe(RING_COLORS.up);
    expect(ring(container, 4).getAttribute("stroke")).toBe(RING_COLORS.down);
    // around the glyph: larger than the node's own circle
    const node = container.querySelector('.cct-node[data-id="2"]');
    expect(Number(ring(container, 2).getAttribute("r"))).toBeGreaterThan(Number(node.getAttribute("r")));
  });

  test("a table without changes draws no ring and no key", () => {
    const { changes: _, ...plain } = ensembleTree();
    const { container } = mountRenderer(plain, { state: STATE });
    expect(container.querySelectorAll(".cct-change-ring")).toHaveLength(0);
    expect(container.querySelector(".cct-change-key")).toBeNull();
    const none = mountRenderer(ensembleTree([0, 0, 0, 0, 0]), { state: STATE }).container;
    expect(none.querySelectorAll(".cct-change-ring")).toHaveLength(0);
  });

  test("the legend keys the rings", () => {
    const { container } = mountRenderer(ensembleTree(), { state: STATE });
    const key = container.querySelector(".cct-legends .cct-change-key");
    expect([...key.querySelectorAll("text")].map((t) => t.textContent)).toEqual([
      "ring: own change, up",
      "dashed: in callees",
      "blue: down",
    ]);
    expect(key.querySelectorAll("circle")[1].getAttribute("stroke-dasharray")).toBe("3 2");
  });

  test("the key says when the changes were looked for within several configurations", () => {
    const tree = ensembleTree();
    tree.changes.within = "within 6 configurations: jobsize, <b>problem_size</b>";
    const { container } = mountRenderer(tree, { state: STATE });
    const note = container.querySelector(".cct-legends .cct-change-key .cct-change-within");
    expect(note.firstChild.textContent).toBe("within 6 configurations");
    expect(note.querySelector("b")).toBeNull(); // a column name is text, never markup
    expect(note.querySelector("title").textContent).toBe(
      "changes looked for within 6 configurations: jobsize, <b>problem_size</b>; none across a switch of configuration",
    );
    // one configuration: nothing to say
    const { container: one } = mountRenderer(ensembleTree(), { state: STATE });
    expect(one.querySelector(".cct-change-within")).toBeNull();
  });

  test("rings that arrive open the first picture's folds over the largest own changes", () => {
    // main → 40 phases → 3 kernels each: too many rows for 160 px, the small phases fold; a
    // kernel under phase 3 (a small one) changed itself
    const parent = [-1];
    const names = ["main"];
    const time = [1];
    const phaseRow = [];
    for (let i = 0; i < 40; i++) {
      phaseRow.push(parent.length);
      parent.push(0);
      names.push(`phase${i}`);
      time.push(1);
      for (let k = 0; k < 3; k++) {
        parent.push(phaseRow[i]);
        names.push(`kernel${i}.${k}`);
        time.push(i === 3 ? 2 : 10 + i);
      }
    }
    const inc = time.map(() => 0);
    for (let row = time.length - 1; row >= 0; row--) {
      inc[row] += time[row];
      if (parent[row] >= 0) inc[parent[row]] += inc[row];
    }
    const phase3 = phaseRow[3];
    const cause = time.map((_, row) => (row === phase3 + 2 ? 1 : row === phase3 || row === 0 ? 2 : 0));
    const base = payload({
      parent,
      names,
      metrics: { time, "time (inc)": inc, [METRIC]: cause.map((c) => (c === 0 ? 0 : 40)) },
      kinds: { time: "exclusive", "time (inc)": "inclusive", [METRIC]: "other" },
      partners: { time: "time (inc)", "time (inc)": "time" },
      tree: "forty",
    });
    const { renderer, changes } = mountRenderer(base, { state: { ...STATE, foldToFit: true }, height: 160 });
    const folded = renderer.state.collapsed;
    expect(folded).toContain(phase3); // the first picture folded the small phases
    const column = new Int32Array(cause);
    const withRings = decodeTable({
      ...base,
      changes: { metric: METRIC, cause: { dtype: "int32", length: cause.length, buffer: new DataView(column.buffer) } },
    });
    renderer.setData(withRings);
    const open = renderer.state.collapsed;
    expect(open).not.toContain(phase3); // the ring of kernel3 is in sight
    expect(open).toEqual(folded.filter((id) => id !== phase3)); // the other folds stay
    expect(changes.at(-1)).toEqual({ collapsed: open }); // reported, as the fit was
    expect(ring(document, phase3 + 2)).not.toBeNull();
    // a fold the user made stays, even over a change
    renderer.setState({ collapsed: [phase3] });
    renderer.setData(decodeTable(base));
    renderer.setData(withRings);
    expect(renderer.state.collapsed).toContain(phase3);
  });

  test("rings keep their screen size at any zoom", () => {
    const { container, renderer } = mountRenderer(ensembleTree(), { state: STATE });
    const before = Number(ring(container, 2).getAttribute("r"));
    renderer.setTransform({ x: 0, y: 0, k: renderer.transform.k * 2 });
    expect(Number(ring(container, 2).getAttribute("r"))).toBeCloseTo(before / 2, 6);
  });

  test("the canvas backend draws the same rings", () => {
    const { container } = mountRenderer(ensembleTree(), { state: { ...STATE, backend: "canvas" } });
    expect(container.querySelectorAll(".cct-change-ring")).toHaveLength(4);
  });

  test("a figure keeps the rings and keys them with the other glyphs", () => {
    const { svg } = figureSVG(decodeTable(ensembleTree()), STATE, { width: 600, height: 400 });
    const doc = new DOMParser().parseFromString(svg, "image/svg+xml");
    expect(doc.querySelectorAll(".cct-change-ring")).toHaveLength(4);
    const keys = [...doc.querySelectorAll(".cct-glyph-key text")].map((t) => t.textContent);
    expect(keys).toEqual(
      expect.arrayContaining(["ring: own change", "dashed ring: in callees", "ring red: up, blue: down"]),
    );
    expect(doc.querySelectorAll(".cct-change-key")).toHaveLength(0); // the figure's own key instead
  });

  test("the decoder checks the causes against the table", () => {
    const short = ensembleTree();
    short.changes = {
      ...short.changes,
      cause: { dtype: "int32", length: 2, buffer: new DataView(new ArrayBuffer(8)) },
    };
    expect(() => decodeTable(short)).toThrow(/changes: 2 causes for 5 nodes/);
    const unnamed = ensembleTree();
    unnamed.changes = { ...unnamed.changes, metric: "nope" };
    expect(() => decodeTable(unnamed)).toThrow(/metric "nope"/);
  });
});

/** Python's `changes` reply: largest effect first, as Ensemble.regressions orders them. */
const CHANGES = {
  metric: "time (inc)",
  by: "launchdate",
  rows: [
    { node: 0, path: ["main"], at: "2025-01-31", before: 10, after: 14.1, change: 0.41, cause: "inclusive only" },
    {
      node: 2,
      path: ["main", "solve", "kernel"],
      at: "2025-01-31",
      before: 10,
      after: 14,
      change: 0.4,
      cause: "exclusive",
    },
    { node: 4, path: ["main", "io"], at: "2025-02-10", before: 2, after: 1.6, change: -0.2, cause: "exclusive" },
    { node: -1, path: ["main", "<gone>"], at: "2025-02-11", before: 1, after: 3, change: 2, cause: "unknown" },
  ],
};

describe("the Changes tab", () => {
  test("a change shows its configuration and what else changed with it", async () => {
    const rows = [
      {
        ...CHANGES.rows[1],
        config: "jobsize 64, compiler gcc",
        environment: ["compiler_version: 12 → 13", "commit: <a1> → b2"],
      },
    ];
    const caution =
      "these runs are 6 configurations (jobsize, compiler): changes along launchdate are looked for within each configuration's own runs, never across a switch of configuration";
    const { p } = mountPane(
      async () => ({}),
      async () => ({ ...CHANGES, rows, caution }),
    );
    p.setChanges(true);
    await p.show("changes", "");
    const row = p.element.querySelector(".cct-change-row");
    const facts = row.querySelector(".cct-change-facts");
    expect(facts.firstChild.textContent).toBe("from 2025-01-31 in jobsize 64, compiler gcc · 10 → 14 · own change");
    const since = facts.querySelector(".cct-change-since");
    expect(since.textContent).toBe("with compiler_version: 12 → 13");
    expect(since.getAttribute("title")).toBe("compiler_version: 12 → 13\ncommit: <a1> → b2");
    expect(p.element.querySelector(".cct-changes .cct-pane-note").textContent).toBe(
      `1 change(s) of time (inc) by launchdate: own changes first, then the largest in time (inc). Note: ${caution}.`,
    );
  });

  test("own changes come first, each group largest |effect| first", () => {
    expect(changeOrder(CHANGES.rows).map((r) => [r.node, r.index])).toEqual([
      [2, 1],
      [4, 2],
      [0, 0],
      [-1, 3],
    ]);
    expect([percent(0.4), percent(-0.2), percent(0), percent(null)]).toEqual(["+40.0 %", "−20.0 %", "0.0 %", "–"]);
  });

  test("it shows for an ensemble, lists Python's changes, selects on click and compares on the button", async () => {
    const { p, handlers } = mountPane(
      async () => ({}),
      async () => CHANGES,
    );
    const tab = [...p.element.querySelectorAll('[role="tab"]')].find((b) => b.textContent === "Changes");
    expect(tab.hidden).toBe(true); // not for a single profile
    p.setChanges(true);
    expect(tab.hidden).toBe(false);
    tab.click();
    expect(handlers.setMode).toHaveBeenCalledWith("changes");
    await p.show("changes", "");
    expect(handlers.changes.fetch).toHaveBeenCalledTimes(1);
    expect(handlers.fetchRows).not.toHaveBeenCalled();
    const rows = [...p.element.querySelectorAll(".cct-change-row")];
    expect(rows.map((r) => r.querySelector(".cct-pane-name").textContent)).toEqual(["kernel", "io", "main", "<gone>"]);
    expect(rows[0].querySelector(".cct-change-pct").textContent).toBe("+40.0 %");
    expect(rows[0].querySelector(".cct-change-pct").classList.contains("cct-change-up")).toBe(true);
    expect(rows[1].querySelector(".cct-change-pct").classList.contains("cct-change-down")).toBe(true);
    expect(rows[0].querySelector(".cct-change-facts").textContent).toBe("from 2025-01-31 · 10 → 14 · own change");
    // callers nearest first (cut to its room, the path keeps the caller); all of it in the title
    const path = rows[0].querySelector(".cct-change-path");
    expect(path.textContent).toBe("in solve ‹ main");
    expect(path.getAttribute("title")).toBe("main › solve › kernel");
    // a name is text, never markup
    expect(rows[3].querySelector(".cct-pane-name").innerHTML).toBe("&lt;gone&gt;");
    expect(p.element.querySelector(".cct-pane-body").hidden).toBe(true);
    rows[0].click();
    expect(handlers.pick).toHaveBeenCalledWith({ mode: "contexts", node: 2, path: [], add: false });
    expect(rows[0].classList.contains("cct-row-selected")).toBe(true);
    rows[3].click(); // not in the tree drawn: nothing to select
    expect(handlers.pick).toHaveBeenCalledTimes(1);
    rows[1].querySelector(".cct-change-compare").click();
    expect(handlers.changes.compare).toHaveBeenCalledWith(2); // its position in w.changes
    expect(handlers.pick).toHaveBeenCalledTimes(1); // the button does not select
    await p.setSelection([4], [], []);
    expect(rows[1].classList.contains("cct-row-selected")).toBe(true);
    expect(rows[0].classList.contains("cct-row-selected")).toBe(false);
  });

  test("Python's error is shown in the tab", async () => {
    const { p } = mountPane(
      async () => ({}),
      async () => {
        throw new Error("changes are found along the runs of a cctviz.Ensemble");
      },
    );
    await p.show("changes", "");
    expect(p.element.querySelector(".cct-changes .cct-pane-note").textContent).toMatch(/runs of a cctviz.Ensemble/);
  });
});

describe("the glue", () => {
  /** A model of an ensemble's widget whose Python answers `changes` and `explain`. */
  function ensembleModel({ manager = undefined } = {}) {
    const model = mockModel({ _strip: { points: [] }, _payload: { tree: "t1" } });
    if (manager) model.widget_manager = manager;
    const sent = [];
    model.send = (message) => {
      sent.push(message);
      const reply =
        message.type === "explain"
          ? { type: "reply", id: message.id, ok: true, model: "IPY_MODEL_abc" }
          : { type: "reply", id: message.id, ok: true, changes: CHANGES };
      queueMicrotask(() => model.trigger("msg:custom", reply));
    };
    return { model, sent };
  }
  const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

  test("changes are asked for once a tree is drawn, after the frame, once per table without them", async () => {
    const { model, sent } = ensembleModel();
    const el = document.body.appendChild(document.createElement("div"));
    const frames = [];
    const changes = bindChanges({ model, el, body: el, client: createLodClient(model), later: (f) => frames.push(f) });
    changes.drawn();
    changes.drawn(); // the same table: asked once
    expect(sent).toHaveLength(0); // not before the frame
    frames.forEach((f) => {
      f();
    });
    expect(sent.map((m) => m.type)).toEqual(["changes"]);
    model.set("_payload", { tree: "t1", changes: { metric: METRIC } });
    changes.drawn(); // the table with its changes: nothing to ask
    model.set("_strip", {});
    model.set("_payload", { tree: "t2" });
    changes.drawn(); // not an ensemble
    expect(frames).toHaveLength(1);
  });

  test("a table that only gained its rings keeps the user's zoom", () => {
    const before = { tree: "t1", size: 5 };
    expect(ringsAdded(before, { tree: "t1", size: 5, changes: {} })).toBe(true);
    expect(ringsAdded(before, { tree: "t2", size: 5, changes: {} })).toBe(false); // other data
    expect(ringsAdded(before, { tree: "t1", size: 9, changes: {} })).toBe(false); // more nodes
    expect(ringsAdded({ ...before, changes: {} }, { tree: "t1", size: 5, changes: {} })).toBe(false);
    expect(ringsAdded(null, { tree: "t1", size: 5, changes: {} })).toBe(false); // a first table
  });

  test("compare runs shows Python's compare view in place of the tree, and goes back", async () => {
    const view = { el: document.createElement("div"), remove: vi.fn() };
    view.el.className = "the-compare-view";
    const manager = { get_model: vi.fn(async (id) => ({ id })), create_view: vi.fn(async () => view) };
    const { model, sent } = ensembleModel({ manager });
    const el = document.body.appendChild(document.createElement("div"));
    const body = el.appendChild(document.createElement("div"));
    const changes = bindChanges({ model, el, body, client: createLodClient(model), later: () => {} });
    await changes.compare(2);
    expect(sent.at(-1)).toMatchObject({ type: "explain", index: 2 });
    expect(manager.get_model).toHaveBeenCalledWith("abc");
    expect(manager.create_view).toHaveBeenCalledWith({ id: "abc" });
    const panel = el.querySelector(".cct-compare-panel");
    expect(panel.dataset.model).toBe("abc");
    expect(panel.querySelector(".the-compare-view")).not.toBeNull();
    expect(body.hidden).toBe(true);
    panel.querySelector(".cct-compare-back").click();
    expect(view.remove).toHaveBeenCalled();
    expect(el.querySelector(".cct-compare-panel")).toBeNull();
    expect(body.hidden).toBe(false);
  });

  test("a host without a widget manager says what to do", async () => {
    const { model } = ensembleModel();
    const el = document.body.appendChild(document.createElement("div"));
    const changes = bindChanges({ model, el, body: el, client: createLodClient(model), later: () => {} });
    await changes.compare(0);
    expect(el.querySelector(".cct-compare-note").textContent).toMatch(/display w.explained in a cell/);
    await flush();
  });
});

describe("the layout of an ensemble's view", () => {
  test("with the strip and the pane open, the pane goes below them where the tree would be crowded", async () => {
    const model = mockModel({ _strip: { points: [] }, table_mode: "off" });
    model.send = () => {};
    const body = document.body.appendChild(document.createElement("div"));
    const changes = { fetch: async () => CHANGES, compare: () => {} };
    const binding = bindPane({
      model,
      body,
      client: createLodClient(model),
      create: createTablePane,
      changes,
      warn: () => {},
    });
    const tab = [...body.querySelectorAll('[role="tab"]')].find((b) => b.textContent === "Changes");
    expect(tab.hidden).toBe(false); // an ensemble: its Changes tab
    const crowded = () => body.classList.contains("cct-body-crowded");
    binding.layout(900);
    expect(crowded()).toBe(false); // the pane is closed
    model.python("table_mode", "changes");
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(crowded()).toBe(true);
    binding.layout(1200);
    expect(crowded()).toBe(false);
    binding.layout(700);
    expect([crowded(), body.classList.contains("cct-body-narrow")]).toEqual([false, true]);
    model.python("_strip", {}); // not an ensemble: no tab, never crowded
    await new Promise((resolve) => setTimeout(resolve, 0));
    binding.layout(900);
    expect([tab.hidden, crowded()]).toEqual([true, false]);
    binding.dispose();
  });
});
