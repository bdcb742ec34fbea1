// The trend pane of an ensemble (js/src/cct/trend/) in jsdom: one chart per node on one shared y
// scale, date, number (log axes) and category axes (points with their spread), a click or Enter
// on a child's chart and the breadcrumb reporting the node to select, the axis menu, names kept
// as text; and its binding to the model (js/src/widget/trend.js): a click selects through the
// renderer as a click in the tree does.
import { afterEach, describe, expect, test } from "vitest";
import { asTrend, linePath, scalesOf, shareText, xText } from "../../../src/cct/trend/trend-data.js";
import { CHART, createTrendPane } from "../../../src/cct/trend/trend-pane.js";
import { bindTrend } from "../../../src/widget/trend.js";
import { mockModel } from "../../support/widget-fakes.js";

afterEach(() => {
  document.body.replaceChildren();
});

const DAY = 86_400_000;
const T0 = Date.UTC(2025, 0, 1);
const AXES = [
  { name: "launchdate", kind: "date" },
  { name: "jobsize", kind: "number" },
  { name: "compiler", kind: "category" },
];

/** Python's pane: node 0 ("main", y = 100 + i) with children 1 (y = 60) and 4 (y = 10 × i). */
const trend = (more = {}) => ({
  by: "launchdate",
  kind: "date",
  axes: AXES,
  metric: "time",
  reducer: "mean",
  profiles: 5,
  categories: [],
  path: [{ id: 0, name: "main" }],
  children: 3,
  left_out: 1,
  thinned: false,
  series: [
    { id: 0, name: "main", share: null, x: [0, 1, 2].map((i) => T0 + i * DAY), y: [100, 101, 102], count: [1, 1, 1] },
    { id: 1, name: "solve", share: 0.6, x: [0, 1, 2].map((i) => T0 + i * DAY), y: [60, 60, 60], count: [1, 1, 1] },
    { id: 4, name: "setup", share: 0.004, x: [0, 2].map((i) => T0 + i * DAY), y: [0, 20], count: [1, 1] },
  ],
  ...more,
});

function mount() {
  const parent = document.createElement("div");
  document.body.append(parent);
  const calls = { select: [], axis: [], log: [] };
  const pane = createTrendPane(parent, {
    onSelect: (id) => calls.select.push(id),
    onAxis: (by) => calls.axis.push(by),
    onLog: (on) => calls.log.push(on),
  });
  return { pane, calls, el: pane.element };
}

/** The y pixel of each point of a chart's line ("M x,y L x,y ..."). */
const ysOf = (chart) =>
  [
    ...chart
      .querySelector(".cct-trend-line")
      .getAttribute("d")
      .matchAll(/[ML][\d.]+,([\d.]+)/g),
  ].map((m) => Number(m[1]));

describe("the trend pane", () => {
  test("draws one chart per node, the node first, all on one y scale, with shares and a note", () => {
    const { pane, el } = mount();
    expect(el.hidden).toBe(true);
    pane.setData(trend());
    expect(el.hidden).toBe(false);
    const charts = [...el.querySelectorAll(".cct-trend-chart")];
    expect(charts.map((c) => c.dataset.id)).toEqual(["0", "1", "4"]);
    expect(pane.shown).toEqual([0, 1, 4]);
    expect(charts[0].classList.contains("cct-trend-node")).toBe(true);
    expect(charts.map((c) => c.querySelector(".cct-trend-share").textContent)).toEqual([
      "",
      "60 % of parent",
      "0.40 % of parent",
    ]);
    // one scale: each chart draws a value at the same height, from 0 (the bottom) to 102 (the top)
    const [main, solve, setup] = charts.map(ysOf);
    const at = (v) => CHART.height - CHART.bottom - (v / 102) * (CHART.height - CHART.bottom - CHART.top);
    expect(main).toEqual([100, 101, 102].map((v) => expect.closeTo(at(v), 1)));
    expect(solve).toEqual([60, 60, 60].map((v) => expect.closeTo(at(v), 1)));
    expect(setup).toEqual([0, 20].map((v) => expect.closeTo(at(v), 1)));
    // the axis ends as dates, the scale's ends as numbers
    const labels = [...charts[0].querySelectorAll(".cct-trend-axis text")].map((t) => t.firstChild.textContent);
    expect(labels).toEqual(["0", "102", "2025-01-01", "2025-01-03"]);
    expect(el.querySelector(".cct-trend-note").textContent).toBe(
      "time (mean over 5 profiles) by launchdate · 2 of 3 children, largest first; 1 smaller child not shown; one y scale",
    );
    pane.setData({});
    expect(el.hidden).toBe(true);
    expect(el.querySelectorAll(".cct-trend-chart")).toHaveLength(0);
  });

  test("a click or Enter on a child's chart, and the breadcrumb, report the node to select", () => {
    const { pane, el, calls } = mount();
    pane.setData(
      trend({
        path: [0, 1, 2, 3, 5, 6, 7].map((id) => ({ id, name: `n${id}` })),
      }),
    );
    const [node, child] = el.querySelectorAll(".cct-trend-chart");
    node.click(); // the node shown is no button
    expect(node.getAttribute("role")).toBeNull();
    child.click();
    child.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", bubbles: true }));
    child.dispatchEvent(new KeyboardEvent("keydown", { key: "a", bubbles: true }));
    expect(child.getAttribute("aria-label")).toBe("Select solve");
    // the path: the root, an ellipsis, the nearest ancestors, the node itself as text
    const path = el.querySelector(".cct-trend-path");
    expect(path.textContent).toBe("n0›…›n3›n5›n6›n7");
    const buttons = [...path.querySelectorAll("button")];
    expect(buttons.map((b) => b.textContent)).toEqual(["n0", "…", "n3", "n5", "n6"]);
    buttons[0].click();
    buttons[4].click();
    expect(calls.select).toEqual([1, 1, 0, 6]);
    expect(path.querySelector("strong").getAttribute("aria-current")).toBe("location");
  });

  test("the ellipsis of a long path is a button that shows the ancestors left out", () => {
    const { pane, el, calls } = mount();
    // one ancestor left out would take the room of its own button: none is
    pane.setData(trend({ path: [0, 1, 2, 3, 5, 6].map((id) => ({ id, name: `n${id}` })) }));
    const path = /** @type {HTMLElement} */ (el.querySelector(".cct-trend-path"));
    expect(path.textContent).toBe("n0›n1›n2›n3›n5›n6");
    expect(path.querySelector("button.cct-trend-more")).toBeNull();
    const long = trend({ path: [0, 1, 2, 3, 4, 5, 6].map((id) => ({ id, name: `n${id}` })) });
    pane.setData(long);
    const more = /** @type {HTMLButtonElement} */ (path.querySelector("button.cct-trend-more"));
    expect(more.textContent).toBe("…");
    expect(more.title).toBe("Show the 2 ancestors left out");
    expect(path.textContent).toBe("n0›…›n3›n4›n5›n6");
    more.click();
    expect(calls.select).toEqual([]); // it selects nothing
    expect(path.textContent).toBe("n0›n1›n2›n3›n4›n5›n6");
    const buttons = [...path.querySelectorAll("button")];
    expect(buttons.map((b) => b.textContent)).toEqual(["n0", "n1", "n2", "n3", "n4", "n5"]);
    expect(path.ownerDocument.activeElement).toBe(buttons[1]); // the first ancestor it showed
    buttons[1].click();
    expect(calls.select).toEqual([1]);
    // the same node again (a resize, the log switch) keeps the path whole; another shortens it
    pane.setData(long);
    expect(path.querySelector("button.cct-trend-more")).toBeNull();
    pane.setData(trend({ path: [0, 1, 2, 3, 4, 5, 7].map((id) => ({ id, name: `n${id}` })) }));
    expect(path.textContent).toBe("n0›…›n3›n4›n5›n7");
  });

  test("the axis menu offers the metadata columns; log axes for a number axis only", () => {
    const { pane, el, calls } = mount();
    pane.setData(trend());
    const menu = el.querySelector("select");
    expect([...menu.options].map((o) => o.value)).toEqual(["launchdate", "jobsize", "compiler"]);
    expect(menu.value).toBe("launchdate");
    expect(el.querySelector(".cct-trend-log").hidden).toBe(true);
    menu.value = "jobsize";
    menu.dispatchEvent(new Event("change"));
    expect(calls.axis).toEqual(["jobsize"]);
    const sizes = [64, 128, 1024];
    pane.setData(
      trend({
        by: "jobsize",
        kind: "number",
        series: [{ id: 0, name: "main", share: null, x: sizes, y: [1, 2, 8], count: [1, 1, 1] }],
      }),
    );
    const box = el.querySelector(".cct-trend-log");
    expect(box.hidden).toBe(false);
    const check = box.querySelector("input");
    check.checked = true;
    check.dispatchEvent(new Event("change"));
    expect(calls.log).toEqual([true]);
    const linear = el.querySelector(".cct-trend-line").getAttribute("d");
    pane.setLog(true);
    const logged = el.querySelector(".cct-trend-line").getAttribute("d");
    expect(logged).not.toBe(linear);
    // on log axes 64 → 128 is as wide as 128 → 256 would be: a third of 64 → 1024's width
    const xs = [...logged.matchAll(/[ML]([\d.]+),/g)].map((m) => Number(m[1]));
    expect((xs[1] - xs[0]) / (xs[2] - xs[0])).toBeCloseTo(1 / 4, 2);
  });

  test("a category axis draws one point per value with its spread", () => {
    const { pane, el } = mount();
    pane.setData(
      trend({
        by: "compiler",
        kind: "category",
        categories: ["clang", "gcc", "intel-oneapi-2024.1"],
        series: [
          {
            id: 0,
            name: "main",
            share: null,
            x: [0, 1, 2],
            y: [5, 6, 7],
            count: [3, 3, 3],
            low: [4, 5, 6],
            high: [6, 8, 7],
          },
          { id: 1, name: "solve", share: 0.5, x: [0, 2], y: [2, 3], count: [3, 3], low: [1, null], high: [3, null] },
        ],
      }),
    );
    const [main, solve] = el.querySelectorAll(".cct-trend-chart");
    expect(main.querySelectorAll(".cct-trend-point")).toHaveLength(3);
    expect(main.querySelectorAll(".cct-trend-spread")).toHaveLength(3);
    expect(solve.querySelectorAll(".cct-trend-point")).toHaveLength(2);
    expect(solve.querySelectorAll(".cct-trend-spread")).toHaveLength(1); // a point without one
    expect(main.querySelector(".cct-trend-line")).toBeNull();
    const labels = [...main.querySelectorAll(".cct-trend-axis text")].slice(2);
    expect(labels.map((t) => t.firstChild.textContent)).toEqual(["clang", "gcc", "intel-o…"]);
    // a name cut to its room says all of itself in its title
    expect(labels[2].querySelector("title").textContent).toBe("intel-oneapi-2024.1");
    expect(main.querySelector(".cct-trend-point title").textContent).toBe("clang: 5 (3 profiles; middle half 4–6)");
    // the spread is on the shared scale too: gcc's high, 8, is the top
    expect(main.querySelectorAll(".cct-trend-axis text")[1].textContent).toBe("8");
  });

  test("a number axis whose points mix runs draws the line with each point's spread", () => {
    const { pane, el } = mount();
    const series = { id: 0, name: "main", share: null, x: [8, 64, 216], y: [5, 6, 7], count: [2, 2, 1] };
    pane.setData(trend({ by: "jobsize", kind: "number", series: [series] }));
    let chart = el.querySelector(".cct-trend-chart");
    expect(chart.querySelector(".cct-trend-line")).not.toBeNull();
    expect(chart.querySelectorAll(".cct-trend-spread")).toHaveLength(0); // one run a point: a line
    pane.setData(
      trend({ by: "jobsize", kind: "number", series: [{ ...series, low: [4, 5, null], high: [7, 6.5, null] }] }),
    );
    chart = el.querySelector(".cct-trend-chart");
    expect(chart.querySelector(".cct-trend-line")).not.toBeNull();
    expect(chart.querySelectorAll(".cct-trend-spread")).toHaveLength(2);
    expect(chart.querySelector(".cct-trend-point title").textContent).toBe("8: 5 (2 profiles; middle half 4–7)");
  });

  test("a series of one point draws that point (every run launched at one date)", () => {
    const { pane, el } = mount();
    const day = Date.UTC(2021, 2, 24, 19, 32, 59);
    const series = { id: 0, name: "main", share: null, x: [day], y: [0.0095], count: [5] };
    pane.setData(trend({ by: "launchdate", kind: "date", series: [series] }));
    const chart = el.querySelector(".cct-trend-chart");
    const points = chart.querySelectorAll(".cct-trend-point");
    expect(points).toHaveLength(1);
    expect(Number(points[0].getAttribute("cx"))).toBeGreaterThan(0);
    expect(Number.isFinite(Number(points[0].getAttribute("cy")))).toBe(true);
    expect(points[0].querySelector("title").textContent).toContain("5 profiles");
  });

  test("names from the data stay text, never markup", () => {
    const { pane, el } = mount();
    const evil = '<img src=x onerror="alert(1)">\u0007';
    pane.setData(
      trend({
        path: [
          { id: 9, name: evil },
          { id: 0, name: "main" },
        ],
        series: [{ id: 0, name: evil, share: null, x: [T0], y: [1], count: [1] }],
      }),
    );
    expect(el.querySelector("img")).toBeNull();
    expect(el.querySelector(".cct-trend-name").textContent).toBe('<img src=x onerror="alert(1)">\u2407');
    expect(el.querySelector(".cct-trend-path button").textContent).toBe('<img src=x onerror="alert(1)">\u2407');
  });
});

describe("the trend pane's data", () => {
  test("a pane that is not one is none; bad numbers are missing", () => {
    expect(asTrend({})).toBeNull();
    expect(asTrend(null)).toBeNull();
    expect(asTrend(trend({ series: [{ id: 0, name: "a", x: [1, 2], y: [1] }] }))).toBeNull();
    expect(asTrend(trend({ series: [{ id: -1, name: "a", x: [1], y: [1] }] }))).toBeNull();
    const t = asTrend(trend({ series: [{ id: 0, name: "a", x: [1, 2], y: [null, 3] }] }));
    expect(t?.series[0].y[0]).toBeNaN();
    expect(t?.leftOut).toBe(1);
  });

  test("scales: one y from 0 over every series and spread; log drops what is not positive", () => {
    const t = /** @type {any} */ (asTrend(trend()));
    const { y } = scalesOf(t, false, [0, 100], [50, 0]);
    expect(y.domain()).toEqual([0, 102]);
    const log = scalesOf(t, true, [0, 100], [50, 0]);
    expect(log.y.domain()).toEqual([20, 102]); // setup's 0 is left out
    expect(linePath(t.series[2], log)).toMatch(/^M[\d.]+,[\d.]+$/); // one point left: no line
    expect(xText(t, T0)).toBe("2025-01-01");
    expect(shareText(0.123)).toBe("12 % of parent");
    expect(shareText(null)).toBe("");
  });
});

describe("the trend pane bound to the model", () => {
  test("shows _trend, follows trend_log, sets trend_by, and selects through the renderer", () => {
    const model = mockModel({ _trend: trend(), trend_log: false, trend_by: "launchdate" });
    const commands = [];
    const body = document.createElement("div");
    document.body.append(body);
    const renderer = { command: (name, value) => commands.push([name, value]) };
    const { pane, dispose } = bindTrend({ model, el: body, renderer, create: createTrendPane });
    expect(body.querySelectorAll(".cct-trend-chart")).toHaveLength(3);
    body.querySelectorAll(".cct-trend-chart")[1].click();
    expect(commands).toEqual([["select", [1]]]);
    const menu = body.querySelector("select");
    menu.value = "compiler";
    menu.dispatchEvent(new Event("change"));
    expect(model.synced.at(-1)).toEqual({ trend_by: "compiler" });
    model.set("_trend", {});
    expect(pane.element.hidden).toBe(true);
    dispose();
    expect(body.querySelector(".cct-trend")).toBeNull();
  });
});

describe("the trend pane in a figure", () => {
  test("goes below the tree in the figure's height, one chart per node, its lines naming what it shows", async () => {
    const { decodeTable } = await import("../../../src/cct/data/decode.js");
    const { figureSVG } = await import("../../../src/cct/figure/figure.js");
    const { smallTree } = await import("../../support/fixtures.js");
    const state = { colorBy: "time", sizeBy: "time (inc)" };
    const options = { width: 600, height: 500, trend: trend({ where: "jobsize >= 256" }) };
    const { svg } = figureSVG(decodeTable(smallTree()), state, options);
    const root = new DOMParser().parseFromString(svg, "image/svg+xml").documentElement;
    expect(root.getAttribute("height")).toBe("500"); // the size asked for: the tree takes less
    expect(root.getAttribute("viewBox")).toBe("0 0 600 500");
    const pane = root.querySelector(".cct-trend-figure");
    const charts = [...root.querySelectorAll(".cct-trend-figure-chart")];
    expect(charts.map((c) => c.getAttribute("data-id"))).toEqual(["0", "1", "4"]);
    const [x, y] = pane
      .getAttribute("transform")
      .match(/[\d.]+/g)
      .map(Number);
    expect(x).toBe(0);
    expect(y).toBeGreaterThan(160);
    expect(y).toBeLessThan(500);
    const lines = [...pane.querySelectorAll(":scope > text")].map((t) => t.textContent);
    expect(lines).toEqual([
      "Trend of main",
      "time: mean over 5 profiles where jobsize >= 256, by launchdate",
      "2 of 3 children, largest first; 1 smaller not drawn; one y scale",
    ]);
    // standalone: colours as attributes, no class the figure's reader would need a style sheet for
    expect(charts[0].querySelector(".cct-trend-marks").getAttribute("stroke")).toBe("#3f6fb5");
    expect(charts[0].querySelector(".cct-trend-axis").getAttribute("fill")).toBeTruthy();
    // without a pane, the tree has the whole height
    const bare = figureSVG(decodeTable(smallTree()), state, { width: 600, height: 500 }).svg;
    expect(bare).not.toContain("cct-trend-figure");
  });
});
