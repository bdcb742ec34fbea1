// The widget's life (js/src/widget/index.js): first draw, reports to Python, errors, downloads,
// replacement by JupyterLab and cleanup; with a mock model and a fake renderer.
import { afterEach, describe, expect, test, vi } from "vitest";
import { VIEW_TRAITS } from "../../src/widget/binding.js";
import { createWidget } from "../../src/widget/index.js";
import { ZOOM_REPORT_DELAY_MS } from "../../src/widget/screen.js";
import { fakeDeps, mockModel, mountWidget, screenReports } from "../support/widget-fakes.js";

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  document.body.replaceChildren();
});

describe("first draw", () => {
  test("state, units and height before the data; the data with the traits' state and selection", () => {
    const model = mockModel({ collapsed: [3], focused: 1, selection: [4, 2], units: { time: "s" }, height: 500 });
    const { el, renderer } = mountWidget(model);
    expect(el.classList.contains("cctviz")).toBe(true);
    // keys typed in the view are not the notebook's (Lumino matches no shortcut inside)
    expect(el.getAttribute("data-lm-suppress-shortcuts")).toBe("true");
    const stage = el.querySelector(".cct-stage") ?? el.appendChild(document.createElement("button"));
    stage.dispatchEvent(new FocusEvent("focusin", { bubbles: true }));
    expect(stage.getAttribute("data-lm-suppress-shortcuts")).toBe("true"); // what Lumino tests first
    expect(el.cctRenderer).toBe(renderer);
    expect(renderer.options.height).toBe(410);
    expect(renderer.element.style.height).toBe("500px");
    const names = renderer.calls.map((c) => c[0]);
    expect(names).toEqual(["setUnits", "setState", "resize", "setData", "setSelection"]);
    expect(renderer.callsOf("setUnits")[0]).toEqual([{ time: "s" }]);
    expect(renderer.callsOf("resize")[0]).toEqual([800, 470]);
    const [table, state, how] = renderer.callsOf("setData")[0];
    expect(table).toEqual({ size: 6, payload: { rows: 6 } });
    expect(state).toMatchObject({ colorBy: "time", collapsed: [3], focus: 1, roots: null });
    expect(how).toEqual({ anchor: null });
    expect(renderer.callsOf("setSelection")[0]).toEqual([[4, 2]]);
    expect(screenReports(model)).toEqual([{ type: "screen", size: [800, 470] }]);
  });

  test("with ResizeObserver, the data is drawn once the cell has its width", () => {
    const observers = [];
    vi.stubGlobal(
      "ResizeObserver",
      class {
        constructor(callback) {
          this.callback = callback;
          this.disconnect = vi.fn();
          observers.push(this);
        }
        observe() {}
      },
    );
    vi.stubGlobal("requestAnimationFrame", (f) => setTimeout(f, 16));
    vi.stubGlobal("cancelAnimationFrame", (id) => clearTimeout(id));
    vi.useFakeTimers();
    const model = mockModel();
    const deps = fakeDeps({ width: 0, height: 0 });
    const { renderer, dispose } = mountWidget(model, deps);
    expect(renderer.callsOf("setData")).toEqual([]);
    renderer.stageSize.width = 640;
    renderer.stageSize.height = 400;
    observers[0].callback();
    expect(renderer.callsOf("setData")).toHaveLength(1);
    expect(renderer.callsOf("resize")).toEqual([[640, 400]]);
    // later resizes: once per frame
    renderer.stageSize.width = 700;
    observers[0].callback();
    observers[0].callback();
    vi.advanceTimersByTime(16);
    expect(renderer.callsOf("resize")).toEqual([
      [640, 400],
      [700, 400],
    ]);
    expect(screenReports(model).map((m) => m.size)).toEqual([
      [640, 400],
      [700, 400],
    ]);
    dispose();
    expect(observers[0].disconnect).toHaveBeenCalled();
    // an element in the page with its width already: drawn at the observer's first report (the
    // next frame), not in the task that made the view
    const again = fakeDeps({ width: 640, height: 400 });
    const second = mountWidget(mockModel(), again);
    expect(second.renderer.callsOf("setData")).toEqual([]);
    observers.at(-1).callback();
    expect(second.renderer.callsOf("setData")).toHaveLength(1);
    second.dispose();
  });
});

describe("reports to Python", () => {
  test("the zoom the user set is reported once it has stayed put for 200 ms, as a message", () => {
    vi.useFakeTimers();
    const model = mockModel();
    const { renderer } = mountWidget(model);
    const zooms = () => screenReports(model).filter((m) => "transform" in m);
    renderer.user.zoom({ x: 1, y: 2, k: 1.5 });
    vi.advanceTimersByTime(ZOOM_REPORT_DELAY_MS - 1);
    renderer.user.zoom({ x: 5, y: 6, k: 2 });
    vi.advanceTimersByTime(ZOOM_REPORT_DELAY_MS - 1);
    expect(zooms()).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(zooms()).toEqual([{ type: "screen", transform: [5, 6, 2] }]);
    renderer.user.zoom(null); // fitted again
    vi.advanceTimersByTime(ZOOM_REPORT_DELAY_MS);
    expect(zooms().at(-1)).toEqual({ type: "screen", transform: null });
    // no state changed: hosts that re-run cells on a change (marimo) see none
    expect(model.synced).toEqual([]);
  });

  test("the stage size is reported when it changes only", () => {
    const model = mockModel();
    const { renderer } = mountWidget(model);
    renderer.resize(800, 470);
    expect(screenReports(model)).toHaveLength(1);
    expect(model.saves).toBe(0);
  });
});

describe("errors", () => {
  test("a table that cannot be read is an error box; a good one brings the view back", () => {
    const model = mockModel({ _payload: { version: 99 } });
    const { el, renderer } = mountWidget(model);
    const box = el.querySelector(".cct-error");
    expect(box?.textContent).toBe(
      "cctviz could not draw this profile: cctviz payload version undefined does not match",
    );
    expect(el.contains(renderer.element)).toBe(false);
    model.python("_payload", { rows: 3 });
    expect(el.querySelector(".cct-error")).toBeNull();
    expect(el.contains(renderer.element)).toBe(true);
    expect(renderer.callsOf("setData").at(-1)[0].size).toBe(3);
  });

  test("a failure to draw reaches Python too", () => {
    const model = mockModel({ _payload: { version: 99 } });
    mountWidget(model);
    expect(model.sent.filter((m) => m.type === "error")).toEqual([
      { type: "error", message: "cctviz payload version undefined does not match", where: "data" },
    ]);
  });

  test("a trait the view refuses shows above the view and reaches Python; the view stays", () => {
    const model = mockModel();
    const { el, renderer } = mountWidget(model);
    model.python("prune_range", ["inf", 3]); // Python checks values first: this is a bug's path
    const note = el.querySelector(".cct-error-note");
    expect(note?.getAttribute("role")).toBe("alert");
    expect(note?.querySelector("span")?.textContent).toMatch(/^cctviz: prune_range was not applied: /);
    expect(el.contains(renderer.element)).toBe(true);
    const errors = model.sent.filter((m) => m.type === "error");
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ where: "trait" });
    expect(errors[0].message).toMatch(/^prune_range was not applied: /);
    // the same failure again: shown once (replaced), reported once
    model.python("prune_range", ["inf", 4]);
    expect(el.querySelectorAll(".cct-error-note")).toHaveLength(1);
    /** @type {HTMLButtonElement} */ (el.querySelector(".cct-error-close")).click();
    expect(el.querySelector(".cct-error-note")).toBeNull();
    // a good value still applies
    model.python("prune_range", [1, 4]);
    expect(renderer.state.prune).toEqual([1, 4]);
  });

  test("a bad initial state is an error box, not an exception out of render", () => {
    const model = mockModel({ color_scale: "cubic" });
    const { el } = mountWidget(model);
    expect(el.querySelector(".cct-error")?.textContent).toMatch(
      /^cctviz could not draw this profile: unknown color scale/,
    );
  });
});

describe("downloads", () => {
  test("SVG and PNG of the view, with provenance, through a link", async () => {
    const clicks = [];
    vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function () {
      // in the document when clicked (VS Code catches downloads there), gone after
      clicks.push({ href: this.href, download: this.download, inDocument: this.isConnected });
    });
    const blobs = [];
    vi.stubGlobal(
      "URL",
      class extends URL {
        static createObjectURL(blob) {
          blobs.push(blob);
          return `blob:${blobs.length}`;
        }
        static revokeObjectURL() {}
      },
    );
    const model = mockModel({ units: { time: "s" }, selection: [2] });
    const { renderer, deps } = mountWidget(model);
    renderer.user.zoom({ x: 3, y: 4, k: 2 });
    renderer.user.download("svg");
    await vi.waitFor(() => expect(clicks).toHaveLength(1));
    const [table, state, options] = deps.figureSVG.mock.calls.at(-1);
    expect(table.size).toBe(6);
    expect(state.colorBy).toBe("time");
    expect(options).toMatchObject({
      width: 800,
      height: 470,
      selection: [2],
      units: { time: "s" },
      transform: { x: 3, y: 4, k: 2 },
    });
    expect(options.provenance).toMatchObject({
      generator: "cctviz (browser)",
      metrics: { color: "time", size: "time (inc)" },
      state,
    });
    expect(clicks[0]).toEqual({ href: "blob:1", download: "cctviz.svg", inDocument: true });
    expect(document.querySelector('a[download="cctviz.svg"]')).toBeNull();
    expect(blobs[0].type).toBe("image/svg+xml");
    renderer.user.download("png");
    await vi.waitFor(() => expect(clicks).toHaveLength(2));
    expect(deps.svgToPng).toHaveBeenLastCalledWith("<svg/>", 800, 470, 2);
    expect(blobs[1].type).toBe("image/png");
    const bytes = await new Promise((resolve) => {
      const reader = new FileReader();
      reader.onload = () => resolve(new Uint8Array(/** @type {ArrayBuffer} */ (reader.result)));
      reader.readAsArrayBuffer(blobs[1]);
    });
    expect([...bytes]).toEqual([0x50, 0x4e, 0x47]); // "UE5H" is "PNG" in base64
    expect(clicks[1].download).toBe("cctviz.png");
  });
});

describe("cleanup", () => {
  test("dispose removes every listener, timer and the renderer", () => {
    vi.useFakeTimers();
    const model = mockModel();
    const { renderer, dispose, deps, el } = mountWidget(model);
    // + selection, units, height; _payload, msg:custom (replies), msg:custom (refusals),
    // comm:close, comm_live_update; _search_count, msg:custom (show_match); _static_follows
    expect(model.listenerCount()).toBe(VIEW_TRAITS.length + 3 + 5 + 2 + 1);
    expect(el.cctRenderer).toBe(renderer);
    renderer.user.zoom({ x: 1, y: 1, k: 3 });
    renderer.user.change({ collapsed: [1] });
    const saves = model.saves;
    dispose();
    // the change the user made last (sent after the frame showing it) still reaches Python
    expect(model.saves).toBe(saves + 1);
    expect(model.synced.at(-1)).toEqual({ collapsed: [1] });
    expect(model.listenerCount()).toBe(0);
    expect(renderer.destroyed).toBe(true);
    // Jupyter may keep the view's element as long as the model: it no longer leads to the tree
    expect(el.cctRenderer).toBeUndefined();
    vi.advanceTimersByTime(10_000);
    expect(model.saves).toBe(saves + 1); // and nothing more: the zoom was not reported after all
    expect(deps.figureSVG).not.toHaveBeenCalled(); // nor the image drawn
    dispose(); // twice is harmless
  });

  test("a view JupyterLab replaced stops; the zoom its user set carries over to the new view", async () => {
    const payload = { rows: 6 };
    const model = mockModel({ _payload: payload });
    const first = mountWidget(model);
    first.renderer.user.zoom({ x: 7, y: 8, k: 4 });
    // JupyterLab renders the output again: the new view's element replaces the old one
    const el = document.createElement("div");
    first.el.replaceWith(el);
    await new Promise((resolve) => setTimeout(resolve, 0)); // MutationObserver
    expect(first.renderer.destroyed).toBe(true);
    const deps = fakeDeps();
    createWidget(deps).render({ model, el });
    expect(deps.renderers[0].callsOf("setTransform")).toEqual([[{ x: 7, y: 8, k: 4 }]]);
  });

  test("a fitted view that was replaced does not hand on an old zoom", async () => {
    const payload = { rows: 6 };
    const model = mockModel({ _payload: payload });
    const first = mountWidget(model);
    first.renderer.user.zoom({ x: 7, y: 8, k: 4 });
    first.renderer.user.zoom(null);
    first.el.remove();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(first.renderer.destroyed).toBe(true);
    const second = mountWidget(model);
    expect(second.renderer.callsOf("setTransform")).toEqual([]);
  });
});

describe("a closed model", () => {
  test("lets go of its node table when Python closes it, its views first, sending nothing", async () => {
    const model = mockModel({ _payload: { rows: 6 } });
    createWidget(fakeDeps()).initialize({ model, experimental: /** @type {any} */ ({}) });
    const { renderer, el, deps } = mountWidget(model);
    expect(renderer.callsOf("setData").length).toBe(1);
    model.close();
    expect(renderer.destroyed).toBe(true); // the view stops at once
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(model.get("_payload")).toEqual({});
    expect(deps.decodeTable).toHaveBeenCalledTimes(1); // no view tried to draw the empty table
    expect(el.querySelector(".cct-error")).toBeNull();
    expect(model.synced).toEqual([]); // nothing goes back to Python
    expect(model.sent.filter((m) => m.type === "error")).toEqual([]);
  });
});
