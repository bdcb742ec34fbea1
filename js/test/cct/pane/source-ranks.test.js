// The table pane's Source tab (js/src/cct/pane/source-view.js) and Ranks tab
// (js/src/cct/pane/rank-strip.js) in jsdom, and both bound to the model (js/src/widget/pane.js):
// the node's line marked, the measured lines' values in the gutter, names and text as text; the
// rank strip in rank order or sorted, outliers marked, its axes (rank numbers, values in the
// metric's unit, the mean's line), a click on a rank setting `rank`.
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, test, vi } from "vitest";
import { rankTickPositions, roundStep, valueAxis } from "../../../src/cct/pane/rank-axes.js";
import { asRanks, barsOf, createRankStrip, MAX_BARS } from "../../../src/cct/pane/rank-strip.js";
import { asSource, createSourceView } from "../../../src/cct/pane/source-view.js";
import { createTablePane } from "../../../src/cct/pane/table-pane.js";
import { MESSAGES } from "../../../src/contract.js";
import { createLodClient } from "../../../src/widget/lod-client.js";
import { bindPane } from "../../../src/widget/pane.js";
import { mockModel } from "../../support/widget-fakes.js";

afterEach(() => {
  document.body.replaceChildren();
  vi.restoreAllMocks();
});

const MARKUP = '<img src=x onerror="globalThis.hacked=1"> & <b>bold</b>';
/** Python's `source` for a node at line 19 of a file whose name and text hold markup. */
const source = (over = {}) => ({
  path: `/db/src/${MARKUP}.c`,
  recorded: `./src/${MARKUP}.c`,
  how: "the database's src/ copy (/db)",
  first: 17,
  line: 19,
  lines: ["int x;", "", `int main() { /* ${MARKUP} */`, "  for (;;) {", "\u0007}"],
  values: [null, null, 2.5e-3, 0.01, null],
  metric: "time",
  truncated: false,
  ...over,
});

describe("the Source tab", () => {
  test("Python's source is checked", () => {
    expect(asSource(null)).toBeInstanceOf(Error);
    expect(asSource({ ...source(), first: 0 })).toBeInstanceOf(Error);
    const ok = /** @type {any} */ (asSource({ ...source(), values: [1, "2", Number.NaN], line: "19" }));
    expect(ok.values).toEqual([1, null, null, null, null]); // one per line, numbers only
    expect(ok.line).toBeNull();
  });

  test("the node's line is marked, the measured lines show their value, text stays text", async () => {
    const fetchSource = vi.fn(async () => source());
    const view = createSourceView(document.body, { fetchSource });
    await view.load(7);
    expect(fetchSource).toHaveBeenCalledWith(7);
    const lines = [...view.element.querySelectorAll(".cct-source-line")];
    expect(lines.map((l) => l.querySelector(".cct-source-number")?.textContent)).toEqual([
      "17",
      "18",
      "19",
      "20",
      "21",
    ]);
    const marked = view.element.querySelectorAll(".cct-source-marked");
    expect(marked.length).toBe(1);
    expect(marked[0].getAttribute("aria-current")).toBe("true");
    expect(marked[0].dataset.line).toBe("19");
    const gutter = lines.map((l) => l.querySelector(".cct-source-value")?.textContent);
    expect(gutter).toEqual(["", "", "0.0025", "0.01", ""]);
    const bars = lines.map((l) => /** @type {HTMLElement | null} */ (l.querySelector(".cct-source-bar"))?.style.width);
    expect(bars).toEqual([undefined, undefined, "25%", "100%", undefined]);
    // markup in the file's name and text is shown as the characters it is, never parsed
    expect(view.element.querySelector("img, b")).toBeNull();
    expect(lines[2].querySelector(".cct-source-text")?.textContent).toBe(`int main() { /* ${MARKUP} */`);
    expect(view.element.querySelector(".cct-source-path")?.textContent).toBe(`/db/src/${MARKUP}.c:19`);
    expect(lines[4].querySelector(".cct-source-text")?.textContent).toBe("\u2407}"); // BEL shown
    expect(/** @type {any} */ (globalThis).hacked).toBeUndefined();
    expect(view.element.querySelector(".cct-source-head")?.getAttribute("title")).toMatch(/src\/ copy/);
  });

  test("a file none of whose lines is measured shows no empty gutter of values", async () => {
    const view = createSourceView(document.body, { fetchSource: async () => source() });
    await view.load(7);
    const body = /** @type {HTMLElement} */ (view.element.querySelector(".cct-source-body"));
    expect(body.classList.contains("cct-source-unmeasured")).toBe(false);
    view.show(true);
    const values = [null, null, null, null, null];
    const unmeasured = createSourceView(document.body, { fetchSource: async () => source({ values }) });
    await unmeasured.load(8);
    const second = /** @type {HTMLElement} */ (unmeasured.element.querySelector(".cct-source-body"));
    expect(second.classList.contains("cct-source-unmeasured")).toBe(true);
    expect(unmeasured.element.querySelector(".cct-source-head")?.textContent).toContain("no line of it is measured");
    // the stylesheet hides that gutter there
    const css = readFileSync(
      resolve(dirname(fileURLToPath(import.meta.url)), "../../../src/cct/pane/pane.css"),
      "utf8",
    );
    expect(css).toMatch(/\.cct-source-unmeasured \.cct-source-value \{\s*display: none;/);
  });

  test("a file not found says every path tried; no selection says how to choose", async () => {
    const tried = "not at any path tried (set w.source_paths to folders that hold it):\n  /a/x.c\n  /b/x.c";
    const view = createSourceView(document.body, { fetchSource: async () => Promise.reject(new Error(tried)) });
    await view.load(3);
    expect(view.element.querySelector(".cct-source-head")?.textContent).toBe(tried);
    expect(view.element.querySelectorAll(".cct-source-line").length).toBe(0);
    await view.load(null);
    expect(view.element.textContent).toMatch(/Select a node/);
  });

  test("a stale answer is dropped", async () => {
    /** @type {((v: unknown) => void)[]} */
    const waiting = [];
    const view = createSourceView(document.body, { fetchSource: () => new Promise((r) => waiting.push(r)) });
    const first = view.load(1);
    const second = view.load(2);
    waiting[1](source({ line: 20 }));
    await second;
    waiting[0](source({ line: 18 }));
    await first;
    expect(view.element.querySelector(".cct-source-marked")?.getAttribute("data-line")).toBe("20");
  });
});

/** Python's `ranks`: rank r's value, rank 5 an outlier. */
const ranks = (over = {}) => ({
  metric: "time",
  over: "rank (threads added up)",
  rank: [0, 1, 2, 3, 4, 5],
  values: [1, 3, 2, null, 1.5, 40],
  outliers: [5],
  count: 6,
  selected: null,
  ...over,
});

describe("the Ranks tab", () => {
  test("bars are sorted largest first, missing last; many ranks are sampled keeping outliers", () => {
    const checked = /** @type {any} */ (asRanks(ranks()));
    expect(barsOf(checked).map((b) => b.rank)).toEqual([5, 1, 2, 4, 0, 3]);
    expect(asRanks({ ...ranks(), values: [1] })).toBeInstanceOf(Error);
    expect(asRanks({ ...ranks(), rank: [0, 1.5, 2, 3, 4, 5] })).toBeInstanceOf(Error);
    const n = 5000;
    const many = /** @type {any} */ (
      asRanks({
        ...ranks(),
        rank: [...Array(n).keys()],
        values: [...Array(n).keys()].map((i) => i % 97),
        outliers: [4321],
        selected: 17,
        count: n,
      })
    );
    const drawn = barsOf(many);
    expect(drawn.length).toBeGreaterThan(MAX_BARS / 2);
    expect(drawn.length).toBeLessThanOrEqual(MAX_BARS + 2);
    expect(drawn.map((b) => b.rank)).toEqual(expect.arrayContaining([4321, 17]));
  });

  test("outliers are marked, the rank shown is pressed, a click sets the rank", async () => {
    const setRank = vi.fn();
    const strip = createRankStrip(document.body, { fetchRanks: async () => ranks({ selected: 2 }), setRank });
    await strip.load(4);
    // in rank order at first (hpcviewer's and Cube's); the order button: largest first
    const order = () => /** @type {HTMLButtonElement[]} */ ([...strip.element.querySelectorAll(".cct-rank")]);
    expect(order().map((b) => b.dataset.rank)).toEqual(["0", "1", "2", "3", "4", "5"]);
    const orderButton = /** @type {HTMLButtonElement} */ (strip.element.querySelector(".cct-ranks-head button"));
    expect(orderButton.textContent).toBe("Order: by rank");
    orderButton.click();
    expect(orderButton.textContent).toBe("Order: largest first");
    const bars = order();
    expect(bars.map((b) => b.dataset.rank)).toEqual(["5", "1", "2", "4", "0", "3"]);
    expect(bars.map((b) => b.classList.contains("cct-rank-outlier"))).toEqual([
      true,
      false,
      false,
      false,
      false,
      false,
    ]);
    expect(bars[0].getAttribute("aria-label")).toBe("rank 5: 40 (outlier)");
    expect(bars[5].getAttribute("aria-label")).toBe("rank 3: missing");
    expect(bars.map((b) => b.getAttribute("aria-pressed"))).toEqual([
      "false",
      "false",
      "true",
      "false",
      "false",
      "false",
    ]);
    expect(/** @type {HTMLElement} */ (bars[0].firstChild).style.height).toBe("100%");
    expect(/** @type {HTMLElement} */ (bars[1].firstChild).style.height).toBe("7.5%");
    bars[1].click();
    expect(setRank).toHaveBeenLastCalledWith(1);
    bars[2].click(); // the rank shown: back to every rank
    expect(setRank).toHaveBeenLastCalledWith(null);
    /** @type {HTMLButtonElement} */ (strip.element.querySelectorAll(".cct-ranks-head button")[1]).click();
    expect(setRank).toHaveBeenCalledTimes(3);
    expect(setRank).toHaveBeenLastCalledWith(null);
    expect(strip.element.querySelector(".cct-ranks-about")?.textContent).toBe(
      "time per rank (threads added up) · 1 outlier(s) marked",
    );
  });

  test("the axes: rank numbers under bars that do not crowd, values in the unit, the mean's line", async () => {
    // 64 ranks of 1.2 ms … 7.5 ms (w.units: "usec", values in µs), rank 63 the tree's
    const n = 64;
    const values = [...Array(n).keys()].map((i) => 1200 + 100 * i);
    const strip = createRankStrip(document.body, {
      fetchRanks: async () => ({
        ...ranks(),
        rank: [...Array(n).keys()],
        values,
        outliers: [],
        count: n,
        selected: 63,
      }),
      setRank: () => {},
      unitOf: (metric) => (metric === "time" ? "usec" : null),
    });
    await strip.load(1);
    const ticks = [...strip.element.querySelectorAll(".cct-rank-tick")];
    const labelled = ticks.map((t) => Number(t.textContent));
    // the first, round steps between, and the rank shown (the last) in bold; none crowding it
    expect(labelled[0]).toBe(0);
    expect(labelled.at(-1)).toBe(63);
    expect(labelled.length).toBeGreaterThanOrEqual(3);
    expect(labelled.length).toBeLessThan(20); // 600 px: not every one of 64
    expect(labelled.slice(1, -1).every((r) => r % 5 === 0 || r % 2 === 0)).toBe(true);
    for (const t of ticks) expect(t.parentElement?.getAttribute("data-rank")).toBe(t.textContent);
    const step = labelled[1] - labelled[0];
    expect(labelled.slice(1).every((r, i) => r - labelled[i] >= step)).toBe(true);
    // the value axis: 3–4 round ticks in ms, the unit said once; each at its height
    expect(strip.element.querySelector(".cct-ranks-unit")?.textContent).toBe("[ms]");
    const yticks = [...strip.element.querySelectorAll(".cct-ranks-ytick")].map((t) => /** @type {HTMLElement} */ (t));
    expect(yticks.map((t) => t.textContent)).toEqual(["0", "2", "4", "6"]);
    expect(yticks.map((t) => Number.parseFloat(t.style.bottom).toFixed(2))).toEqual(
      [0, 2000, 4000, 6000].map((v) => ((100 * v) / 7500).toFixed(2)),
    );
    // the mean's line at the mean (4.35 ms of a 7.5 ms axis), labelled in the unit
    const mean = /** @type {HTMLElement} */ (strip.element.querySelector(".cct-ranks-mean"));
    expect(Number(mean.dataset.value)).toBeCloseTo(4350);
    expect(Number.parseFloat(mean.style.bottom)).toBeCloseTo((100 * 4350) / 7500);
    expect(mean.textContent).toBe("mean 4.35 ms");
    // the rank shown: its number and value said, its bar's label in the unit
    expect(strip.element.querySelector(".cct-ranks-chosen")?.textContent).toBe(
      "The tree shows rank 63: 7.5 ms. mean 4.35 ms · min 1.2 ms · max 7.5 ms",
    );
    expect(strip.element.querySelector('.cct-rank[data-rank="0"]')?.getAttribute("aria-label")).toBe("rank 0: 1.2 ms");
  });

  test("rank ticks: the kept one wins its neighbourhood; steps are round", () => {
    expect([0.3, 1, 3, 7, 12, 40].map(roundStep)).toEqual([1, 1, 5, 10, 20, 50]);
    const all = [...Array(10).keys()];
    expect(rankTickPositions(all, 1000)).toEqual(all); // room for every label
    expect(rankTickPositions([...Array(100).keys()], 500, 51)).toEqual([0, 10, 20, 30, 40, 51, 60, 70, 80, 90, 99]);
    expect(rankTickPositions([], 100)).toEqual([]);
    expect(valueAxis(52.6, "s")).toMatchObject({ unit: "s", ticks: [{ text: "0" }, { text: "20" }, { text: "40" }] });
  });

  test("a profile without ranks says so", async () => {
    const strip = createRankStrip(document.body, {
      fetchRanks: async () => Promise.reject(new Error("this profile has one value per node")),
      setRank: () => {},
    });
    await strip.load(0);
    expect(strip.element.textContent).toMatch(/one value per node/);
    expect(strip.element.querySelectorAll(".cct-rank").length).toBe(0);
  });
});

describe("bound to the model", () => {
  const flush = () => new Promise((resolve) => setTimeout(resolve, 0));
  function bound(traits = {}) {
    const model = mockModel(traits);
    const client = createLodClient(model, { warn: () => {} });
    const body = document.body.appendChild(document.createElement("div"));
    const changes = { fetch: async () => ({ metric: "t", by: "run", rows: [] }), compare: () => {} };
    const binding = bindPane({ model, body, client, create: createTablePane, changes, warn: () => {} });
    return { model, binding };
  }
  /** Answers the `locate` the pane sends for the selection. */
  const locate = (model) => {
    const ask = model.sent.findLast((m) => m.type === "locate");
    model.deliver({ type: "reply", id: ask.id, ok: true, located: { names: ["main"], paths: [[0, 3]] } });
  };

  test("the Source tab asks Python for the selected node's source with the contract's message", async () => {
    const { model, binding } = bound({ table_mode: "source", selection: [3] });
    await flush();
    locate(model);
    await flush();
    const ask = model.sent.findLast((m) => m.type === "source");
    expect(ask).toMatchObject({ type: "source", node: 3 });
    for (const key of Object.keys(ask)) expect(Object.keys(MESSAGES.source.fields)).toContain(key);
    model.deliver({ type: "reply", id: ask.id, ok: true, source: source() });
    await flush();
    expect(binding.pane.element.querySelector(".cct-source-marked")?.textContent).toContain("int main()");
    expect(binding.pane.element.querySelector(".cct-pane-body")?.hidden).toBe(true);
  });

  test("a click in the rank strip sets `rank`, and the tab loads again", async () => {
    const { model, binding } = bound({ table_mode: "ranks", selection: [3] });
    await flush();
    locate(model);
    await flush();
    const ask = model.sent.findLast((m) => m.type === "ranks");
    expect(ask).toMatchObject({ type: "ranks", node: 3 });
    for (const key of Object.keys(ask)) expect(Object.keys(MESSAGES.ranks.fields)).toContain(key);
    model.deliver({ type: "reply", id: ask.id, ok: true, ranks: ranks() });
    await flush();
    const bar = /** @type {HTMLButtonElement} */ (binding.pane.element.querySelector('.cct-rank[data-rank="5"]'));
    bar.click();
    expect(model.synced.at(-1)).toEqual({ rank: 5 });
    await flush();
    const again = model.sent.findLast((m) => m.type === "ranks");
    expect(again.id).not.toBe(ask.id);
  });
});
