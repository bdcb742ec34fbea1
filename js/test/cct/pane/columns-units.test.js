// The table pane's value columns in their units (js/src/cct/pane/cells.js: one SI prefix per
// column, the unit in its header) and its Columns menu (js/src/cct/pane/column-chooser.js), alone,
// in the pane, and bound to the model (the choice sets table_metrics).
import { afterEach, describe, expect, test, vi } from "vitest";
import {
  columnFormatOf,
  columnFormats,
  columnUnit,
  headerText,
  MISSING,
  shareText,
  valueText,
} from "../../../src/cct/pane/cells.js";
import { createColumnChooser } from "../../../src/cct/pane/column-chooser.js";
import { appendBreakable } from "../../../src/cct/pane/table-lines.js";
import { createTablePane } from "../../../src/cct/pane/table-pane.js";
import { createLodClient } from "../../../src/widget/lod-client.js";
import { bindPane } from "../../../src/widget/pane.js";
import { mountPane } from "../../support/mount.js";
import { mockModel } from "../../support/widget-fakes.js";

afterEach(() => {
  document.body.replaceChildren();
  vi.restoreAllMocks();
});

/** Python's rows: seconds in "time (inc)", a ratio beside it; `totals` the first's total. */
const reply = (names, inc, ratio = inc.map(() => 2.5)) => ({
  columns: ["time (inc)", "imbalance"],
  kinds: ["inclusive", "ratio"],
  totals: [Math.max(...inc), null],
  label: names,
  values: [inc, ratio],
  count: names.map(() => 1),
  node: names.map((_, i) => i),
  more: names.map(() => false),
});
const heads = (p) => [...p.element.querySelectorAll(".cct-pane-columns [role=columnheader]")].map((h) => h.textContent);
const values = (p) => [...p.element.querySelectorAll(".cct-pane-body .cct-pane-value")].map((e) => e.textContent);
const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("cells in their column's unit", () => {
  test("one prefix for the column, the one its largest value fits; the unit in the header", () => {
    const f = columnFormatOf([0.00552, 0.000345, null, Number.NaN], "s");
    expect(headerText("time (inc)", f)).toBe("time (inc) [µs]");
    expect([0.00552, 0.000345, 0].map((v) => valueText(v, f))).toEqual(["5520", "345", "0"]);
    expect([null, Number.NaN].map((v) => valueText(v, f))).toEqual([MISSING, MISSING]);
    // a unit with a prefix is rescaled to its base; a label keeps k, M on each number
    const ms = columnFormatOf([15000, 2000], "ms");
    expect([headerText("t", ms), valueText(15000, ms), valueText(2000, ms)]).toEqual(["t [s]", "15", "2"]);
    const samples = columnFormatOf([12300, 500], "samples");
    expect([headerText("n", samples), valueText(12300, samples), valueText(500, samples)]).toEqual([
      "n [samples]",
      "12.3k",
      "0.5k",
    ]);
    expect(headerText("n", columnFormatOf([12300], null))).toBe("n");
  });

  test("columns of one unit share one prefix: a metric and its partner read alike", () => {
    // an exclusive column of small values beside its inclusive partner: both in ms, not [s] and [ms]
    const [exc, inc, n] = columnFormats(
      [
        [0.000889, 0, 0],
        [1.307, 0.801, 0.734],
        [12, 3],
      ],
      ["s", "s", null],
    );
    expect([headerText("time", exc), headerText("time (inc)", inc)]).toEqual(["time [ms]", "time (inc) [ms]"]);
    expect([valueText(0.000889, exc), valueText(1.307, inc)]).toEqual(["0.889", "1307"]);
    expect(headerText("calls", n)).toBe("calls");
  });

  test("a ratio has no unit, whatever its metric's", () => {
    expect(columnUnit("imbalance", "ratio", { imbalance: "s" })).toBeNull();
    expect(columnUnit("time", "exclusive", { time: "usec" })).toBe("usec");
    expect(columnUnit("time", "exclusive", {})).toBeNull();
  });

  test("the pane prints its columns in the view's units, one prefix from the top rows", async () => {
    const { p } = mountPane(async () => reply(["main", "solve"], [0.00552, 0.000345]));
    p.setUnits({ "time (inc)": "s", imbalance: "s" });
    await p.show("contexts", "");
    expect(heads(p)).toEqual(["name", "time (inc) [µs] ▼", "imbalance"]);
    expect(values(p)).toEqual(["5520", "2.5", "345", "2.5"]);
    p.setUnits({});
    expect(heads(p)).toEqual(["name", "time (inc) ▼", "imbalance"]);
  });
});

describe("a narrow pane stays readable", () => {
  test("a long metric name breaks after its separators, its text whole", async () => {
    const el = document.createElement("span");
    appendBreakable(el, "max#sum#time.duration [s]");
    expect(el.textContent).toBe("max#sum#time.duration [s]");
    const pieces = [...el.childNodes].filter((n) => n.nodeName !== "WBR").map((n) => n.textContent);
    expect(pieces).toEqual(["max#", "sum#", "time.", "duration [s]"]);
    expect(el.querySelectorAll("wbr").length).toBe(3);
    const markup = document.createElement("span");
    appendBreakable(markup, "<b>mem.bytes</b>");
    expect(markup.querySelector("b")).toBeNull(); // text, never markup
    expect(markup.textContent).toBe("<b>mem.bytes</b>");
    // in the pane: the headers carry the break opportunities, their text unchanged
    const { p } = mountPane(async () => ({
      ...reply(["main"], [3]),
      columns: ["sum#inclusive#sum#time.duration", "imbalance"],
    }));
    await p.show("contexts", "");
    const header = p.element.querySelectorAll(".cct-pane-columns [role=columnheader]")[1];
    expect(header.textContent).toBe("sum#inclusive#sum#time.duration ▼");
    expect(header.querySelectorAll("wbr").length).toBe(4);
  });

  test("a share too small to print in the cell's room says < 0.01 %", () => {
    expect(shareText(0.00929, 363)).toBe("< 0.01 %");
    expect(shareText(-0.00929, 363)).toBe("> −0.01 %");
    expect(shareText(0.0367, 363)).toBe("0.010 %");
    expect(shareText(0, 363)).toBe("0 %");
    expect(shareText(181.5, 363)).toBe("50 %");
  });

  test("the tools (filter, Columns, close) are one group after the tabs, not among them", () => {
    const { p } = mountPane(async () => reply(["main"], [3]));
    const tabs = p.element.querySelector(".cct-pane-head > [role=tablist]");
    const tools = p.element.querySelector(".cct-pane-head > .cct-pane-tools");
    expect([...tabs.children].every((b) => b.getAttribute("role") === "tab")).toBe(true);
    expect(tools.querySelector(".cct-pane-filter")).not.toBeNull();
    expect(tools.querySelector("[aria-label='Close the table']")).not.toBeNull();
    expect(tools.contains(p.chooser.button)).toBe(true);
  });

  test("the Source and Ranks tabs keep the calling contexts' width: the tree does not move", async () => {
    const { p } = mountPane(async () => reply(["main"], [3]));
    await p.show("contexts", "");
    const contexts = p.element.style.minWidth;
    expect(contexts).toBe("302px"); // the name's 140 px, a value with its share, a value
    for (const mode of ["source", "ranks"]) {
      await p.show(mode, "");
      expect(p.element.style.minWidth).toBe(contexts);
    }
    await p.show("functions", "");
    expect(p.element.style.minWidth).toBe("366px"); // and its contexts column
  });
});

describe("the Columns menu", () => {
  const menu = () => {
    const head = document.body.appendChild(document.createElement("div"));
    const choose = vi.fn();
    const chooser = createColumnChooser(head, { choose });
    chooser.set(["time", "time (inc)", "<b>calls</b>"], ["time (inc)"]);
    return { chooser, choose };
  };

  test("lists the metrics as text, the shown ones checked; a choice reports the columns", () => {
    const { chooser, choose } = menu();
    const items = [...chooser.list.querySelectorAll("label")];
    expect(items.map((l) => l.textContent)).toEqual(["time", "time (inc)", "<b>calls</b>"]);
    expect(chooser.list.querySelector("b")).toBeNull();
    const boxes = [...chooser.list.querySelectorAll("input")];
    expect(boxes.map((b) => b.checked)).toEqual([false, true, false]);
    boxes[1].click(); // the last column stays
    expect(choose).not.toHaveBeenCalled();
    expect(boxes[1].checked).toBe(true);
    expect(boxes[1].getAttribute("aria-disabled")).toBe("true");
    boxes[2].click();
    expect(choose).toHaveBeenLastCalledWith(["time (inc)", "<b>calls</b>"]);
    const again = [...chooser.list.querySelectorAll("input")];
    again[1].click();
    expect(choose).toHaveBeenLastCalledWith(["<b>calls</b>"]);
  });

  test("keyboard: the button opens it onto the first box, arrows move, Escape closes to the button", () => {
    const { chooser } = menu();
    expect(chooser.button.getAttribute("aria-expanded")).toBe("false");
    chooser.button.click();
    expect(chooser.open).toBe(true);
    expect(chooser.button.getAttribute("aria-expanded")).toBe("true");
    const boxes = [...chooser.list.querySelectorAll("input")];
    expect(document.activeElement).toBe(boxes[0]);
    const key = (k) => document.activeElement.dispatchEvent(new KeyboardEvent("keydown", { key: k, bubbles: true }));
    key("ArrowDown");
    expect(document.activeElement).toBe(boxes[1]);
    key("ArrowUp");
    key("ArrowUp");
    expect(document.activeElement).toBe(boxes[2]); // wraps around
    key("Escape");
    expect(chooser.open).toBe(false);
    expect(document.activeElement).toBe(chooser.button);
  });

  test("bound to the model: a choice in the page sets table_metrics, and the rows load again", async () => {
    const payload = { rows: 6, metrics: [{ name: "time" }, { name: "time (inc)" }, { name: "imbalance" }] };
    const model = mockModel({ table_mode: "contexts", _payload: payload });
    const client = createLodClient(model, { warn: () => {} });
    const body = document.body.appendChild(document.createElement("div"));
    const changes = { fetch: async () => ({ metric: "t", by: "run", rows: [] }), compare: () => {} };
    const binding = bindPane({ model, body, client, create: createTablePane, changes, warn: () => {} });
    await flush();
    model.deliver({ type: "reply", id: model.sent.at(-1).id, ok: true, rows: reply(["main"], [3]) });
    await flush();
    const list = binding.pane.element.querySelector(".cct-pane-chooser-list");
    expect([...list.querySelectorAll("label")].map((l) => l.textContent)).toEqual(["time", "time (inc)", "imbalance"]);
    const asked = model.sent.length;
    list.querySelector("input").click(); // "time"
    expect(model.get("table_metrics")).toEqual(["time (inc)", "imbalance", "time"]);
    expect(model.synced.at(-1)).toEqual({ table_metrics: ["time (inc)", "imbalance", "time"] });
    await flush();
    expect(model.sent.length).toBe(asked + 1);
    expect(model.sent.at(-1)).toMatchObject({ type: "rows", mode: "contexts" });
    binding.dispose();
  });
});
