// The profile strip of an ensemble (js/src/cct/strip/profile-strip.js) in jsdom: its points, its
// menus, a brush reporting ranges in axis units, text from the data kept as text; and its
// binding to the model (js/src/widget/strip.js): the brush goes to Python as a `brush` request.
import { afterEach, describe, expect, test, vi } from "vitest";
import { asStrip, createProfileStrip, shown } from "../../../src/cct/strip/profile-strip.js";
import { createLodClient } from "../../../src/widget/lod-client.js";
import { bindStrip } from "../../../src/widget/strip.js";
import { mockModel } from "../../support/widget-fakes.js";

afterEach(() => {
  document.body.replaceChildren();
  vi.restoreAllMocks();
});

const DAY = 86_400_000;
/** Python's strip: `n` profiles launched a day apart, y = 10 × i; the even ones pass. */
const strip = (n = 5, more = {}) => ({
  axes: [
    { name: "launchdate", label: "launchdate", kind: "date" },
    { name: "jobsize", label: "jobsize", kind: "number" },
    { name: "metric:time (inc)", label: "time (inc) (run total)", kind: "number" },
  ],
  x: "launchdate",
  y: "jobsize",
  profiles: n,
  passing: Math.ceil(n / 2),
  missing: 0,
  sampled: false,
  where: "",
  brush: null,
  ids: Array.from({ length: n }, (_, i) => `run-${i}`),
  xs: Array.from({ length: n }, (_, i) => Date.UTC(2025, 0, 1) + i * DAY),
  ys: Array.from({ length: n }, (_, i) => 10 * i),
  pass: Array.from({ length: n }, (_, i) => (i % 2 ? 0 : 1)),
  ...more,
});

/** A strip in the page, the SVG at its nominal size on screen. */
function mount(handlers = {}) {
  const parent = document.createElement("div");
  document.body.append(parent);
  const calls = { axes: [], brush: [] };
  const s = createProfileStrip(parent, {
    onAxes: (x, y) => calls.axes.push([x, y]),
    onBrush: (r) => calls.brush.push(r),
    ...handlers,
  });
  const svg = s.element.querySelector("svg");
  svg.getBoundingClientRect = () => ({ left: 0, top: 0, width: 300, height: 210, right: 300, bottom: 210 });
  return { s, svg, calls };
}

/** A pointer event at (x, y) of the SVG (jsdom has no PointerEvent: a MouseEvent of that type). */
const pointer = (type, x, y) =>
  Object.assign(new MouseEvent(type, { clientX: x, clientY: y, button: 0, bubbles: true }), { pointerId: 1 });

describe("the profile strip", () => {
  test("draws one point per profile, passing ones apart, and says how many there are", () => {
    const { s } = mount();
    s.setData(strip(5));
    const dots = [...s.element.querySelectorAll("circle")];
    expect(dots).toHaveLength(5);
    expect(s.element.querySelectorAll(".cct-profiles-pass")).toHaveLength(3);
    expect(s.element.querySelectorAll(".cct-profiles-fail")).toHaveLength(2);
    // passing points are drawn last (on top)
    expect(dots.at(-1).getAttribute("class")).toBe("cct-profiles-pass");
    const title = dots.at(-1).querySelector("title").textContent;
    expect(title).toMatch(/^run-\d\nlaunchdate: 2025-01-0\d\njobsize: \d+$/);
    expect(s.element.querySelector(".cct-profiles-note").textContent).toMatch(/^5 profiles/);
    // points lie inside the plot, later dates to the right, larger y higher
    const cx = dots.map((d) => Number(d.getAttribute("cx")));
    expect(Math.min(...cx)).toBeGreaterThan(40);
    expect(Math.max(...cx)).toBeLessThan(300);
    expect(s.element.querySelectorAll("text").length).toBeGreaterThan(2);
  });

  test("a sample and a filter are said; no strip hides it", () => {
    const { s } = mount();
    s.setData(strip(4, { sampled: true, profiles: 9000 }));
    expect(s.element.querySelector(".cct-profiles-note").textContent).toMatch(/a sample of 4 of 9000/);
    s.setData(strip(4, { where: "jobsize >= 20", passing: 2 }));
    expect(s.element.querySelector(".cct-profiles-note").textContent).toBe("2 of 4 profiles pass: jobsize >= 20");
    s.setData({});
    expect(s.element.hidden).toBe(true);
    s.setData(strip(3, { xs: [1, 2] })); // malformed: columns of different lengths
    expect(s.element.hidden).toBe(true);
  });

  test("the menus list the axes and report the choice", () => {
    const { s, calls } = mount();
    s.setData(strip(3));
    const [y, x] = s.element.querySelectorAll("select");
    expect([...x.options].map((o) => o.textContent)).toEqual(["launchdate", "jobsize", "time (inc) (run total)"]);
    expect([x.value, y.value]).toEqual(["launchdate", "jobsize"]);
    y.value = "metric:time (inc)";
    y.dispatchEvent(new Event("change"));
    expect(calls.axes).toEqual([["launchdate", "metric:time (inc)"]]);
  });

  test("a drag brushes x and y ranges in axis units; a flat drag x only; a click clears", () => {
    const { s, svg, calls } = mount();
    s.setData(strip(5));
    const dots = [...s.element.querySelectorAll("circle")];
    const at = (i) => {
      const d = dots.find((c) => c.querySelector("title").textContent.startsWith(`run-${i}`));
      return [Number(d.getAttribute("cx")), Number(d.getAttribute("cy"))];
    };
    const [x1, y1] = at(1);
    const [x3, y3] = at(3);
    svg.dispatchEvent(pointer("pointerdown", x1 - 3, y1 + 3));
    svg.dispatchEvent(pointer("pointermove", x3 + 3, y3 - 3));
    expect(s.element.querySelector(".cct-profiles-brush").getAttribute("display")).toBeNull();
    svg.dispatchEvent(pointer("pointerup", x3 + 3, y3 - 3));
    const [r] = calls.brush;
    expect(r.x[0]).toBeGreaterThan(Date.UTC(2025, 0, 1));
    expect(r.x[0]).toBeLessThan(Date.UTC(2025, 0, 2));
    expect(r.x[1]).toBeGreaterThan(Date.UTC(2025, 0, 4));
    expect(r.x[1]).toBeLessThan(Date.UTC(2025, 0, 5));
    expect(r.y[0]).toBeLessThan(10);
    expect(r.y[1]).toBeGreaterThan(30);
    expect(r.y[1]).toBeLessThan(40);
    svg.dispatchEvent(pointer("pointerdown", x1, 100));
    svg.dispatchEvent(pointer("pointerup", x3, 101));
    expect(calls.brush[1].y).toBeNull();
    expect(calls.brush[1].x).toHaveLength(2);
    svg.dispatchEvent(pointer("pointerdown", 100, 100));
    svg.dispatchEvent(pointer("pointerup", 101, 100));
    expect(calls.brush[2]).toEqual({ x: null, y: null });
    expect(s.element.querySelector(".cct-profiles-brush").getAttribute("display")).toBe("none");
  });

  test("Python's brush is drawn again with the new strip", () => {
    const { s } = mount();
    const from = Date.UTC(2025, 0, 2);
    s.setData(strip(5, { brush: { x: [from, from + 2 * DAY], y: null } }));
    const band = s.element.querySelector(".cct-profiles-brush");
    expect(band.getAttribute("display")).toBeNull();
    expect(Number(band.getAttribute("width"))).toBeGreaterThan(50);
    expect(Number(band.getAttribute("height"))).toBeGreaterThan(150); // every y
  });

  test("names and values from the data go in as text, never as markup", () => {
    const { s } = mount();
    const evil = '<img src=x onerror="alert(1)">';
    s.setData(
      strip(2, {
        axes: [
          { name: evil, label: evil, kind: "number" },
          { name: "y", label: "<b>y</b>\u0007", kind: "number" },
        ],
        x: evil,
        y: "y",
        ids: [evil, "</title><script>alert(2)</script>"],
        where: `"${evil}" > 1`,
      }),
    );
    expect(s.element.querySelector("img")).toBeNull();
    expect(s.element.querySelector("script")).toBeNull();
    expect(s.element.querySelector("b")).toBeNull();
    expect([...s.element.querySelectorAll("option")].map((o) => o.textContent).slice(0, 2)).toEqual([
      evil,
      "<b>y</b>\u2407",
    ]);
    expect(s.element.querySelector("circle title").textContent).toContain(evil);
    expect(s.element.querySelector(".cct-profiles-note").textContent).toContain(evil);
  });

  test("Python's strip is checked", () => {
    expect(asStrip(null)).toBeNull();
    expect(asStrip({ axes: [], ids: ["a"], xs: [1], ys: ["2"], pass: [1] })?.ys).toEqual([Number.NaN]);
    expect(shown(Date.UTC(2025, 5, 3), { name: "d", label: "d", kind: "date" })).toBe("2025-06-03");
    expect(shown(1234.5, undefined)).toBe("1.23k");
  });
});

describe("the strip bound to the model", () => {
  test("shows _strip, sets the axes, and sends a brush as a request", async () => {
    const model = mockModel({ _strip: {} });
    const body = document.createElement("div");
    document.body.append(body);
    const client = createLodClient(model);
    const { strip: s, dispose } = bindStrip({ model, body, client, create: createProfileStrip });
    expect(body.firstChild).toBe(s.element);
    expect(s.element.hidden).toBe(true);
    model.python("_strip", strip(3));
    expect(s.element.hidden).toBe(false);
    expect(s.element.querySelectorAll("circle")).toHaveLength(3);
    const [y] = s.element.querySelectorAll("select");
    y.value = "metric:time (inc)";
    y.dispatchEvent(new Event("change"));
    expect(model.synced.at(-1)).toEqual({ strip_x: "launchdate", strip_y: "metric:time (inc)" });
    const svg = s.element.querySelector("svg");
    svg.getBoundingClientRect = () => ({ left: 0, top: 0, width: 300, height: 210 });
    svg.dispatchEvent(pointer("pointerdown", 60, 100));
    svg.dispatchEvent(pointer("pointerup", 200, 101));
    const sent = model.sent.at(-1);
    expect(sent).toMatchObject({ type: "brush", y: null });
    expect(sent.x).toHaveLength(2);
    // Python refuses it: the strip says why
    vi.spyOn(console, "warn").mockImplementation(() => {});
    model.deliver({ type: "reply", id: sent.id, ok: false, error: "no profile passes it" });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(s.element.querySelector(".cct-profiles-note").textContent).toBe("no profile passes it");
    model.python("_strip", strip(3, { where: "x > 1", passing: 1 }));
    expect(s.element.querySelector(".cct-profiles-note").textContent).toBe("1 of 3 profiles pass: x > 1");
    dispose();
    expect(body.childElementCount).toBe(0);
  });
});
