// The table pane: its rows (js/src/cct/pane/table-rows.js), the pane in jsdom with rows from a fake
// Python (js/src/cct/pane/table-pane.js), and its binding to the model (js/src/widget/pane.js).
import { afterEach, describe, expect, test, vi } from "vitest";
import { createTablePane, ROW_HEIGHT } from "../../../src/cct/pane/table-pane.js";
import { compareRows, firstSort, rowsFrom, visibleRows, windowOf } from "../../../src/cct/pane/table-rows.js";
import { MESSAGES } from "../../../src/contract.js";
import { createLodClient } from "../../../src/widget/lod-client.js";
import { bindPane } from "../../../src/widget/pane.js";
import { mountPane } from "../../support/mount.js";
import { mockModel } from "../../support/widget-fakes.js";

afterEach(() => {
  document.body.replaceChildren();
  vi.restoreAllMocks();
});

/** Python's rows: `names` with exclusive `exc`, inclusive twice that, `more` for all. */
const reply = (names, exc, more = false) => ({
  columns: ["time", "time (inc)"],
  kinds: ["exclusive", "inclusive"],
  label: names,
  values: [exc, exc.map((v) => (v === null ? null : 2 * v))],
  count: names.map(() => 1),
  node: names.map(() => -1),
  more: names.map(() => more),
});

describe("rows", () => {
  test("Python's rows are checked and keyed by their path", () => {
    const { columns, rows } = rowsFrom(reply(["a", "b"], [1, null]), null, "callers");
    expect(columns).toEqual({ names: ["time", "time (inc)"], totals: [null, null], kinds: ["exclusive", "inclusive"] });
    expect(rows.map((r) => [r.key, r.values])).toEqual([
      ['callers:["a"]', [1, 2]],
      ['callers:["b"]', [null, null]],
    ]);
    const below = rowsFrom(reply(["c"], [3]), rows[0], "callers").rows[0];
    expect([below.path, below.depth]).toEqual([["a", "c"], 1]);
    expect(() => rowsFrom({ ...reply(["a"], [1]), count: [] }, null, "callers")).toThrow(/malformed/);
    expect(() => rowsFrom(null, null, "functions")).toThrow(/malformed/);
  });

  test("sorting puts missing values last either way, ties by name", () => {
    const { rows } = rowsFrom(reply(["b", "a", "c", "d"], [2, 2, null, 5]), null, "functions");
    const order = (sort) => [...rows].sort(compareRows(sort)).map((r) => r.label);
    expect(order({ column: 0, descending: true })).toEqual(["d", "a", "b", "c"]);
    expect(order({ column: 0, descending: false })).toEqual(["a", "b", "d", "c"]);
    expect(order({ column: -1, descending: false })).toEqual(["a", "b", "c", "d"]);
  });

  test("open rows show their sorted children; the filter keeps top rows", () => {
    const { rows } = rowsFrom(reply(["x", "y"], [1, 9], true), null, "callers");
    rows[0].children = rowsFrom(reply(["p", "q"], [1, 3]), rows[0], "callers").rows;
    rows[0].open = true;
    const sort = { column: 0, descending: true };
    expect(visibleRows(rows, sort).map((r) => r.label)).toEqual(["y", "x", "q", "p"]);
    expect(visibleRows(rows, sort, (r) => r.label === "x").map((r) => r.label)).toEqual(["x", "q", "p"]);
  });

  test("a row open onto 200,000 children, and a path 20,000 rows deep, list without overflow", () => {
    const { rows } = rowsFrom(reply(["top"], [1], true), null, "callers");
    const names = Array.from({ length: 200_000 }, (_, i) => `f${i}`);
    rows[0].children = rowsFrom(
      reply(
        names,
        names.map((_, i) => i),
      ),
      rows[0],
      "callers",
    ).rows;
    rows[0].open = true;
    const shown = visibleRows(rows, { column: 0, descending: true });
    expect(shown).toHaveLength(200_001);
    expect(shown[1].label).toBe("f199999");
    // a chain 20,000 rows deep (rows built once and copied: their path keys grow with depth)
    const [template] = rowsFrom(reply(["d"], [1], true), rows[0], "callers").rows;
    let row = rows[0];
    for (let d = 0; d < 20_000; d++) {
      const child = { ...template, label: `d${d}`, open: true, children: null };
      row.children = [child];
      row = child;
    }
    expect(visibleRows(rows, { column: 0, descending: true })).toHaveLength(20_001);
  });

  test("the window is the rows in view and a few more", () => {
    expect(windowOf(0, 220, 22, 100000)).toEqual([0, 16]);
    expect(windowOf(22 * 5000, 220, 22, 100000)).toEqual([4994, 5016]);
    expect(windowOf(22 * 99999, 220, 22, 100000)).toEqual([99993, 100000]);
    expect(windowOf(0, 220, 22, 3)).toEqual([0, 3]);
  });
});

/** A pane with a fake Python: `functions` lists `count` functions; callers of X are X1, X2. */
function pane(count = 100000) {
  const requests = [];
  const { p, handlers } = mountPane(async (request) => {
    requests.push(request);
    if (request.itself) return reply([request.path[0]], [7], true);
    if (request.mode === "functions" || (request.mode === "callers" && !request.path.length)) {
      const names = Array.from({ length: count }, (_, i) => `f${i}`);
      return reply(
        names,
        names.map((_, i) => i),
        request.mode === "callers",
      );
    }
    const last = request.path.at(-1);
    return reply([`${last}<b>1`, `${last}2`], [1, 2]);
  });
  return { p, handlers, requests, body: p.element.querySelector(".cct-pane-body") };
}
const labels = (p) => [...p.element.querySelectorAll(".cct-pane-body .cct-pane-label")].map((e) => e.textContent);

describe("the pane", () => {
  test("100,000 functions: every row is known, a window of them is in the page", async () => {
    const { p, body } = pane();
    await p.show("functions", "");
    expect(p.rows).toHaveLength(100000);
    expect(p.rows[0].label).toBe("f99999"); // largest exclusive first
    expect(p.drawn).toBeLessThan(60);
    body.scrollTop = ROW_HEIGHT * 50000;
    body.dispatchEvent(new Event("scroll"));
    await new Promise((resolve) => requestAnimationFrame(resolve));
    const shown = [...body.querySelectorAll(".cct-pane-row")].map((r) => Number(r.dataset.index));
    expect(shown).toContain(50000);
    expect(p.drawn).toBeLessThan(60);
  });

  test("a click picks the row, shift adds; headers sort", async () => {
    const { p, handlers } = pane(5);
    await p.show("functions", "");
    p.element.querySelector(".cct-pane-body .cct-pane-row").dispatchEvent(new MouseEvent("click", { bubbles: true }));
    expect(handlers.pick).toHaveBeenLastCalledWith({ mode: "functions", node: -1, path: ["f4"], add: false });
    p.element
      .querySelectorAll(".cct-pane-body .cct-pane-row")[1]
      .dispatchEvent(new MouseEvent("click", { bubbles: true, shiftKey: true }));
    expect(handlers.pick).toHaveBeenLastCalledWith({ mode: "functions", node: -1, path: ["f3"], add: true });
    const header = p.element.querySelector(".cct-pane-columns button");
    header.click();
    expect(labels(p)).toEqual(["f0", "f1", "f2", "f3", "f4"]);
    expect(p.element.querySelector(".cct-pane-columns button").getAttribute("aria-sort")).toBe("ascending");
  });

  test("a row shows where its function's code is, if Python says", () => {
    const { rows } = rowsFrom({ ...reply(["a", "b"], [1, 2]), where: ["libm.so", null] }, null, "functions");
    expect(rows.map((r) => r.where)).toEqual(["libm.so", null]);
    const { p } = mountPane(async () => ({ ...reply(["a", "b"], [1, 2]), where: ["libm.so", null] }));
    return p.show("functions", "").then(() => {
      const where = [...p.element.querySelectorAll(".cct-pane-body .cct-pane-row")].map(
        (r) => r.querySelector(".cct-pane-where")?.textContent ?? null,
      );
      expect(where).toEqual([null, "libm.so"]); // b (2) sorts first
    });
  });

  test("a toggle loads the callers; names are text, never markup", async () => {
    const { p, requests } = pane(2);
    await p.show("callers", "");
    p.element.querySelector(".cct-pane-toggle").dispatchEvent(new MouseEvent("click", { bubbles: true }));
    await vi.waitFor(() => expect(labels(p)).toHaveLength(4));
    expect(requests.at(-1)).toEqual({ mode: "callers", path: ["f1"] });
    expect(labels(p)).toEqual(["f1", "f12", "f1<b>1", "f0"]);
    expect(p.element.querySelector("b")).toBeNull();
    expect(p.element.querySelector('.cct-pane-row[aria-level="2"]')).not.toBeNull();
  });

  test("the search keeps matching functions; a double click asks for the sandwich", async () => {
    const { p, handlers } = pane(30);
    await p.show("functions", "");
    p.setSearch("f2", { regex: false, caseSensitive: false });
    expect(labels(p).sort()).toEqual(["f2", "f20", "f21", "f22", "f23", "f24", "f25", "f26", "f27", "f28", "f29"]);
    p.element
      .querySelector(".cct-pane-body .cct-pane-row")
      .dispatchEvent(new MouseEvent("dblclick", { bubbles: true }));
    expect(handlers.sandwich).toHaveBeenCalledWith("f29");
  });

  test("the sandwich shows the callers above and the callees below, both open", async () => {
    const { p, requests } = pane();
    await p.show("sandwich", "main");
    expect(requests.slice(0, 2)).toEqual([
      { mode: "callers", path: ["main"], itself: true },
      { mode: "callees", path: ["main"], itself: true },
    ]);
    expect(labels(p)).toEqual(["callers of main ▲", "main2", "main<b>1", "main calls ▼", "main2", "main<b>1"]);
  });

  test("a function opens into its callers and its loops and lines; a loop into its lines", async () => {
    const requests = [];
    const { p, handlers } = mountPane(async (request) => {
      requests.push(request);
      if (!request.path.length) return reply(["solve"], [5], true);
      if (request.path.length === 1) {
        // Python: the callers (part false), then the loops and lines (part true)
        return { ...reply(["main", "Loop@s.c:3", "main"], [1, 3, 1], true), part: [false, true, true] };
      }
      return { ...reply(["s.c:4"], [3]), part: [true] };
    });
    await p.show("callers", "");
    p.element.querySelector(".cct-pane-toggle").dispatchEvent(new MouseEvent("click", { bubbles: true }));
    await vi.waitFor(() => expect(labels(p)).toHaveLength(4));
    // a caller and a line of one name are two rows
    expect(p.rows.map((r) => [r.label, r.part])).toEqual([
      ["solve", 0],
      ["Loop@s.c:3", 1],
      ["main", 0],
      ["main", 1],
    ]);
    expect(new Set(p.rows.map((r) => r.key)).size).toBe(4);
    const lines = [...p.element.querySelectorAll(".cct-pane-body .cct-pane-row")];
    expect(lines.map((l) => l.classList.contains("cct-pane-part"))).toEqual([false, true, false, true]);
    expect(lines[1].querySelector(".cct-pane-name").title).toBe("solve › Loop@s.c:3");
    // the loop's lines are asked for with how many of its path's names are loops or lines
    lines[1].querySelector(".cct-pane-toggle").dispatchEvent(new MouseEvent("click", { bubbles: true }));
    await vi.waitFor(() => expect(labels(p)).toHaveLength(5));
    expect(requests.at(-1)).toEqual({ mode: "callers", path: ["solve", "Loop@s.c:3"], part: 1 });
    expect(p.rows[2]).toMatchObject({ label: "s.c:4", part: 2, path: ["solve", "Loop@s.c:3", "s.c:4"] });
    const line = p.element.querySelectorAll(".cct-pane-body .cct-pane-row")[2];
    line.dispatchEvent(new MouseEvent("click", { bubbles: true }));
    expect(handlers.pick).toHaveBeenLastCalledWith({
      mode: "callers",
      node: -1,
      path: ["solve", "Loop@s.c:3", "s.c:4"],
      part: 2,
      add: false,
    });
    // a line's sandwich is its function's
    line.dispatchEvent(new MouseEvent("dblclick", { bubbles: true }));
    expect(handlers.sandwich).toHaveBeenLastCalledWith("solve");
  });

  test("the sandwich of no function says how to choose one", async () => {
    const { p, handlers } = pane();
    await p.show("sandwich", "");
    expect(p.element.querySelector(".cct-pane-note").textContent).toMatch(/Select a node/);
    expect(handlers.fetchRows).not.toHaveBeenCalled();
  });
});

/** Python's contexts rows with three columns: a ratio (no share), inclusive and exclusive (shares of 200). */
const threeColumns = (names, inc) => ({
  columns: ["cost <b>per</b> call", "time (inc)", "time"],
  kinds: ["ratio", "inclusive", "exclusive"],
  totals: [null, 200, 200],
  label: names,
  values: [inc.map((v) => v / 7), inc, inc.map((v) => v / 2)],
  count: names.map(() => 1),
  node: names.map((_, i) => i + 1),
  more: names.map(() => false),
});
const cellsOf = (p) =>
  [...p.element.querySelectorAll(".cct-pane-body .cct-pane-row")].map((r) =>
    [...r.querySelectorAll(".cct-pane-num")].map((c) => c.textContent),
  );

describe("metric columns", () => {
  test("Python's totals and kinds are read; bad ones mean no share", () => {
    const { columns } = rowsFrom({ ...threeColumns(["a"], [1]), totals: [0, "x", 200] }, null, "contexts");
    expect(columns.totals).toEqual([null, null, 200]);
    expect(firstSort(columns, "inclusive")).toEqual({ column: 1, descending: true });
    expect(firstSort(columns, "exclusive")).toEqual({ column: 2, descending: true });
    expect(firstSort({ ...columns, kinds: ["ratio", "max", "other"] }, "inclusive").column).toBe(0);
  });

  test("one column per metric, its name as text, shares where it adds up", async () => {
    const { p } = mountPane(async () => threeColumns(["a", "b"], [50, 150]));
    await p.show("contexts", "");
    const heads = [...p.element.querySelectorAll(".cct-pane-columns [role=columnheader]")];
    expect(heads.map((h) => h.textContent)).toEqual(["name", "cost <b>per</b> call", "time (inc) ▼", "time"]);
    expect(p.element.querySelector(".cct-pane-columns b")).toBeNull(); // text, never markup
    expect(heads[2].getAttribute("aria-sort")).toBe("descending"); // a tree sorts by inclusive first
    expect(heads[2].title).toMatch(/share of the whole profile's total/);
    expect(heads[1].title).toBe("sort by cost <b>per</b> call");
    // b (150) above a; the ratio has no share, the others their share of 200
    expect(cellsOf(p)).toEqual([
      ["21.4", "150 75 %", "75 38 %"],
      ["7.14", "50 25 %", "25 13 %"],
    ]);
    for (const row of p.element.querySelectorAll(".cct-pane-body .cct-pane-row"))
      expect([...row.querySelectorAll("[role=gridcell]")]).toHaveLength(4);
    expect(p.element.style.getPropertyValue("--cct-pane-tracks")).toBe("minmax(0, 1fr) 62px 100px 100px");
    expect(p.element.style.minWidth).toBe("402px"); // the name keeps room beside three columns
    heads[1].click(); // the ratio: largest first, then the other way
    expect(labels(p)).toEqual(["b", "a"]);
    p.element.querySelectorAll(".cct-pane-columns [role=columnheader]")[1].click();
    expect(labels(p)).toEqual(["a", "b"]);
    expect(p.columns.names).toEqual(["cost <b>per</b> call", "time (inc)", "time"]);
  });

  test("the flat list sorts by the first exclusive column and counts contexts", async () => {
    const { p } = mountPane(async () => ({ ...threeColumns(["a", "b"], [50, 150]), node: [-1, -1] }));
    await p.show("functions", "");
    const heads = [...p.element.querySelectorAll(".cct-pane-columns [role=columnheader]")];
    expect(heads.map((h) => h.getAttribute("aria-sort"))).toEqual(["none", "none", "none", "descending", "none"]);
    expect(heads.at(-1).textContent).toBe("contexts");
    expect(cellsOf(p)[0]).toHaveLength(4);
  });

  test("other columns from Python: the sort starts again at the first inclusive one", async () => {
    let reply3 = threeColumns(["a", "b"], [50, 150]);
    const { p } = mountPane(async () => reply3);
    await p.show("contexts", "");
    p.element.querySelectorAll(".cct-pane-columns [role=columnheader]")[3].click(); // by time
    reply3 = { ...reply3, columns: ["time", "time (inc)"], kinds: ["exclusive", "inclusive"], totals: [200, 200] };
    reply3.values = reply3.values.slice(1).reverse();
    await p.reload();
    const heads = [...p.element.querySelectorAll(".cct-pane-columns [role=columnheader]")];
    expect(heads.map((h) => h.textContent)).toEqual(["name", "time", "time (inc) ▼"]);
  });
});

describe("bound to the model", () => {
  function bound(traits = {}) {
    const model = mockModel(traits);
    const client = createLodClient(model, { warn: () => {} });
    const body = document.body.appendChild(document.createElement("div"));
    const changes = { fetch: async () => ({ metric: "t", by: "run", rows: [] }), compare: () => {} };
    const binding = bindPane({ model, body, client, create: createTablePane, changes, warn: () => {} });
    return { model, binding };
  }
  const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

  test("table_mode shows the pane and asks Python for rows with the contract's message", async () => {
    const { model, binding } = bound();
    expect(binding.pane.element.hidden).toBe(true);
    model.python("table_mode", "functions");
    await flush();
    const ask = model.sent.at(-1);
    expect(ask).toMatchObject({ type: "rows", mode: "functions", path: [] });
    for (const key of Object.keys(ask)) expect(Object.keys(MESSAGES.rows.fields)).toContain(key);
    model.deliver({ type: "reply", id: ask.id, ok: true, rows: reply(["a", "b"], [1, 2]) });
    await flush();
    expect(labels(binding.pane)).toEqual(["b", "a"]);
    expect(binding.pane.element.hidden).toBe(false);
  });

  test("a focus from the pane reaches Python before the rows it asks for", async () => {
    const { model, binding } = bound({ table_mode: "contexts" });
    await flush();
    const first = model.sent.at(-1);
    model.deliver({ type: "reply", id: first.id, ok: true, rows: { ...reply(["main"], [1], true), node: [4] } });
    await flush();
    binding.pane.element
      .querySelector(".cct-pane-body .cct-pane-row")
      .dispatchEvent(new MouseEvent("dblclick", { bubbles: true }));
    expect(model.get("focused")).toBe(4);
    expect(model.synced.at(-1)).toEqual({ focused: 4 });
    const saves = model.saves;
    await flush();
    expect(model.sent.at(-1)).toMatchObject({ type: "rows", mode: "contexts", node: null });
    expect(model.saves).toBe(saves);
  });

  test("table_metrics and size_by set from Python load the rows again", async () => {
    const { model } = bound({ table_mode: "contexts" });
    await flush();
    const asked = () => model.sent.filter((m) => m.type === "rows").length;
    const before = asked();
    model.python("table_metrics", ["time", "time (inc)", "calls"]);
    await flush();
    expect(asked()).toBe(before + 1);
    model.python("size_by", "calls");
    await flush();
    expect(asked()).toBe(before + 2);
  });

  test("the tree's selection is located; an open sandwich follows a clicked node", async () => {
    const { model, binding } = bound({ table_mode: "sandwich", sandwich: "" });
    await flush();
    model.python("selection", [7]);
    await flush();
    expect(model.sent.at(-1)).toMatchObject({ type: "locate", nodes: [7] });
    binding.treeSelected([7]);
    const ask = model.sent.at(-1);
    model.deliver({ type: "reply", id: ask.id, ok: true, located: { names: ["solve"], paths: [[0, 7]] } });
    await flush();
    expect(model.get("sandwich")).toBe("solve");
  });
});
