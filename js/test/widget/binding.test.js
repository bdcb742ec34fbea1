// Traits ⇄ renderer (js/src/widget/binding.js), against a mock model and a fake renderer.
import { afterEach, describe, expect, test, vi } from "vitest";
import contractJson from "../../../cctviz/contract.json";
import { VIEW_DEFAULTS, VIEW_SPECS } from "../../src/contract.js";
import { bindTraits, traitWriter, VIEW_TRAITS, viewState } from "../../src/widget/binding.js";
import { TRAIT_KINDS } from "../../src/widget/model.js";
import { afterFrame, createSaves, sameValue } from "../../src/widget/saves.js";
import { fakeRenderer, mockModel, mountWidget, screenReports } from "../support/widget-fakes.js";

afterEach(() => {
  document.body.replaceChildren();
  vi.restoreAllMocks();
});

/** After the page's next frame and the task after it (when the user's changes are sent). */
const afterNextFrame = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));

function bound(traits) {
  const model = mockModel(traits);
  const el = document.createElement("div");
  const renderer = fakeRenderer(el, {});
  const changed = vi.fn();
  const unbind = bindTraits(model, renderer, changed);
  return { model, renderer, changed, unbind };
}

describe("the model typedef follows the contract", () => {
  test("TRAIT_KINDS names every trait of contract.json with its kind, and no other", () => {
    const contract = Object.fromEntries(contractJson.traits.map((s) => [s.trait, s.kind]));
    expect(TRAIT_KINDS).toEqual(contract);
  });

  test("the view traits are the contract's, in its order", () => {
    expect(VIEW_TRAITS).toEqual(VIEW_SPECS.map((s) => ({ trait: s.trait, key: s.key })));
  });
});

describe("viewState", () => {
  test("reads every view trait under its key; a missing value is the default", () => {
    const model = mockModel({ collapsed: [3, 1], focused: 4, color_scale: undefined });
    const state = viewState(model);
    expect(Object.keys(state)).toEqual(Object.keys(VIEW_DEFAULTS));
    expect(state).toMatchObject({ colorBy: "time", sizeBy: "time (inc)", collapsed: [3, 1], focus: 4 });
    expect(state.colorScale).toBe("linear");
  });
});

test("sameValue compares JSON data", () => {
  expect(sameValue([1, [2, 3]], [1, [2, 3]])).toBe(true);
  expect(sameValue([1, 2], [2, 1])).toBe(false);
  expect(sameValue(null, [])).toBe(false);
  expect(sameValue("a", "a")).toBe(true);
});

describe("Python → renderer", () => {
  test("a view trait set from Python reaches the renderer under its key, in ids, once", () => {
    const { model, renderer, changed } = bound();
    model.python("collapsed", [7, 2]);
    model.python("focused", 9);
    model.python("prune_range", [0.5, 3]);
    model.python("search_regex", true);
    expect(renderer.callsOf("setState")).toEqual([
      [{ collapsed: [7, 2] }],
      [{ focus: 9 }],
      [{ prune: [0.5, 3] }],
      [{ searchRegex: true }],
    ]);
    expect(renderer.state).toMatchObject({ collapsed: [2, 7], focus: 9, prune: [0.5, 3], searchRegex: true });
    expect(changed).toHaveBeenCalledTimes(4);
    // nothing goes back to Python
    expect(model.saves).toBe(0);
  });

  test("every view trait has its listener", () => {
    const { model, renderer } = bound();
    for (const { trait } of VIEW_TRAITS) expect(model.listenersOf(`change:${trait}`)).toBe(1);
    model.python("visible_roots", [0]);
    model.python("highlighted", [5]);
    model.python("palette", "magma");
    expect(renderer.state).toMatchObject({ roots: [0], highlighted: [5], palette: "magma" });
  });

  test("a value the renderer shows already is not set again", () => {
    const { model, renderer, changed } = bound();
    model.python("legend", "auto"); // the default, shown already
    model.python("collapsed", []);
    expect(renderer.callsOf("setState")).toEqual([]);
    expect(changed).not.toHaveBeenCalled();
  });

  test("a value the renderer refuses is reported, not thrown into the model's event loop", () => {
    const model = mockModel();
    const renderer = fakeRenderer(document.createElement("div"), {});
    const failed = vi.fn();
    bindTraits(model, renderer, () => {}, failed);
    expect(() => model.python("color_scale", "cubic")).not.toThrow();
    expect(failed).toHaveBeenCalledTimes(1);
    expect(String(failed.mock.calls[0][0].message)).toMatch(
      /^color_scale was not applied: unknown color scale "cubic"/,
    );
    expect(renderer.state.colorScale).toBe("linear");
  });

  test.each([
    ["height", 10, /^height was not applied: 10 is not a whole number of pixels ≥ 240/],
    ["height", 300.5, /^height was not applied: 300.5 is not/],
    ["height", "600", /^height was not applied: "600" is not/],
    ["units", ["s"], /^units was not applied: \["s"\] is not a map of metric names to unit texts/],
    ["units", { time: 5 }, /^units was not applied: the unit of "time" is 5, not a text/],
  ])("%s = %j set past Python's checks is refused and reported; the view keeps what it had", (trait, bad, message) => {
    const model = mockModel({ height: 400, units: { time: "s" } });
    const renderer = fakeRenderer(document.createElement("div"), {});
    const failed = vi.fn();
    const changed = vi.fn();
    bindTraits(model, renderer, changed, failed);
    expect(() => model.python(trait, bad)).not.toThrow();
    expect(failed).toHaveBeenCalledTimes(1);
    expect(String(failed.mock.calls[0][0].message)).toMatch(message);
    expect(renderer.element.style.height).toBe("400px");
    expect(renderer.callsOf("setUnits")).toEqual([]);
    expect(changed).not.toHaveBeenCalled();
  });

  test("a trait that comes with a new table waits for it: drawing the table applies it", () => {
    const model = mockModel();
    const renderer = fakeRenderer(document.createElement("div"), {});
    const failed = vi.fn();
    let pending = true;
    bindTraits(
      model,
      renderer,
      () => {},
      failed,
      () => pending,
    );
    model.python("size_by", "time (inc) (mean)"); // a metric of the table not drawn yet
    expect(renderer.callsOf("setState")).toEqual([]);
    expect(failed).not.toHaveBeenCalled();
    pending = false; // the table is drawn (with the whole state): later changes apply at once
    model.python("color_scale", "log");
    expect(renderer.state.colorScale).toBe("log");
  });

  test("selection, units and height", () => {
    const { model, renderer, changed } = bound({ height: 400 });
    expect(renderer.element.style.height).toBe("400px");
    model.python("selection", [5, 2]);
    expect(renderer.selection).toEqual([5, 2]);
    model.python("selection", [5, 2]); // the same: not set again
    expect(renderer.callsOf("setSelection")).toEqual([[[5, 2]]]);
    model.python("units", { time: "s" });
    expect(renderer.callsOf("setUnits")).toEqual([[{ time: "s" }]]);
    model.python("height", 720);
    expect(renderer.element.style.height).toBe("720px");
    expect(changed).toHaveBeenCalledTimes(2); // selection, units (the height is no redraw)
  });

  test("unbinding removes every listener", () => {
    const { model, renderer, unbind } = bound();
    expect(model.listenerCount()).toBe(VIEW_TRAITS.length + 3);
    unbind();
    expect(model.listenerCount()).toBe(0);
    model.python("collapsed", [1]);
    expect(renderer.calls).toEqual([]);
  });
});

describe("renderer → Python", () => {
  test("a user change sets each trait and saves once", () => {
    const model = mockModel();
    const changed = vi.fn();
    const { onChange } = traitWriter(model, changed);
    onChange({ collapsed: [4, 8], focus: 4, colorScale: "log" });
    expect(model.get("collapsed")).toEqual([4, 8]);
    expect(model.get("focused")).toBe(4);
    expect(model.get("color_scale")).toBe("log");
    expect(model.saves).toBe(1);
    expect(model.synced).toEqual([{ collapsed: [4, 8], focused: 4, color_scale: "log" }]);
    expect(changed).toHaveBeenCalledTimes(1);
  });

  test("keys that are not view state are ignored; nothing to save, no save", () => {
    const model = mockModel();
    const { onChange } = traitWriter(model);
    onChange(/** @type {any} */ ({ cursor: 3 }));
    expect(model.saves).toBe(0);
  });

  test("a user selection sets `selection` in selection order and saves once", () => {
    const model = mockModel();
    const { onSelect } = traitWriter(model);
    onSelect([9, 1, 4]);
    expect(model.get("selection")).toEqual([9, 1, 4]);
    expect(model.synced).toEqual([{ selection: [9, 1, 4] }]);
  });

  test("no echo: the user's change comes back as a trait change and is not set on the renderer", async () => {
    const model = mockModel();
    const { renderer } = mountWidget(model);
    // the size is reported at the first draw, as a message: no state changes
    expect(model.synced).toEqual([]);
    expect(screenReports(model)).toEqual([{ type: "screen", size: [800, 470] }]);
    const before = renderer.calls.length;
    renderer.user.change({ collapsed: [2], search: "kern" });
    renderer.user.select([3, 1]);
    expect(model.synced).toEqual([]); // not before the frame that shows them
    await afterNextFrame();
    expect(model.synced).toEqual([{ collapsed: [2], search: "kern", selection: [3, 1] }]);
    expect(renderer.calls.slice(before)).toEqual([]);
  });

  test("in the widget, a trait set from Python reaches the renderer and nothing is saved", () => {
    const model = mockModel();
    const { renderer } = mountWidget(model);
    const saves = model.saves;
    model.python("size_by", "time");
    expect(renderer.callsOf("setState").at(-1)).toEqual([{ sizeBy: "time" }]);
    expect(model.saves).toBe(saves);
  });
});

describe("what the user changed reaches Python after the frame that shows it", () => {
  /** A `later` that holds what it is given until `run()`. */
  function held() {
    /** @type {(() => void)[]} */
    const waiting = [];
    const later = (/** @type {() => void} */ f) => waiting.push(f);
    return {
      later,
      waiting,
      run: () => {
        for (const f of waiting.splice(0)) f();
      },
    };
  }

  test("changes made before the send go in one message, sent once", () => {
    const model = mockModel();
    const { later, waiting, run } = held();
    const saves = createSaves(model, later);
    const { onChange, onSelect } = traitWriter(model, () => {}, saves.save);
    onChange({ collapsed: [4] });
    onSelect([2]);
    onChange({ focus: 4 });
    expect(model.saves).toBe(0);
    expect(waiting).toHaveLength(1); // one send is waiting, not three
    run();
    expect(model.synced).toEqual([{ collapsed: [4], selection: [2], focused: 4 }]);
    run();
    saves.flush(); // nothing waits any more
    expect(model.saves).toBe(1);
  });

  test("a message or a save through the messenger sends what waits first, and no empty save follows", () => {
    const model = mockModel();
    const { later, run } = held();
    const saves = createSaves(model, later);
    const { onChange } = traitWriter(model, () => {}, saves.save);
    onChange({ collapsed: [4] });
    saves.messenger.send({ type: "load_more", id: 1, node: 4 });
    expect(model.log).toEqual([{ save: { collapsed: [4] } }, { send: { type: "load_more", id: 1, node: 4 } }]);
    onChange({ collapsed: [] });
    saves.messenger.set("reducer", "max");
    saves.messenger.save_changes(); // sends the waiting change with it
    run();
    expect(model.synced).toEqual([{ collapsed: [4] }, { collapsed: [], reducer: "max" }]);
    // everything else is the model's own
    expect(saves.messenger.get("reducer")).toBe("max");
  });

  test("a closed model is sent nothing more: a view closing with Python sends no waiting change", () => {
    const model = mockModel();
    const { renderer } = mountWidget(model);
    renderer.user.change({ collapsed: [2] });
    const saves = model.saves;
    model.close(); // comm:close: the view stops
    expect(renderer.destroyed).toBe(true);
    expect(model.saves).toBe(saves);
  });

  test("afterFrame runs after the next frame, or within 100 ms where no frame comes", () => {
    vi.useFakeTimers();
    try {
      /** @type {FrameRequestCallback[]} */
      const frames = [];
      const win = /** @type {Window} */ (
        /** @type {unknown} */ ({
          requestAnimationFrame: (/** @type {FrameRequestCallback} */ f) => frames.push(f),
          setTimeout: (/** @type {() => void} */ f, /** @type {number} */ ms) => setTimeout(f, ms),
        })
      );
      const run = vi.fn();
      afterFrame(win)(run);
      vi.advanceTimersByTime(50);
      expect(run).not.toHaveBeenCalled();
      for (const f of frames.splice(0)) f(0);
      expect(run).not.toHaveBeenCalled(); // in the task after the frame's callbacks
      vi.advanceTimersByTime(0);
      expect(run).toHaveBeenCalledTimes(1);
      vi.advanceTimersByTime(200);
      expect(run).toHaveBeenCalledTimes(1); // once
      const hidden = vi.fn();
      afterFrame(win)(hidden); // a hidden page: no frame comes
      vi.advanceTimersByTime(100);
      expect(hidden).toHaveBeenCalledTimes(1);
    } finally {
      vi.useRealTimers();
    }
  });
});
