// INTEGRATION: the widget glue with the REAL renderer modules (js/src/cct), as js/src/index.js
// wires them, against a mock model. This is the one widget test that depends on the renderer:
// it needs the id-based renderer API (full-tree ids in and out, `setData(table, state,
// { anchor })`). If it fails while the other widget-*.test.js pass, look at the renderer first.
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import widget from "../src/index.js";
import { expandedTree, lodTree } from "./support/fixtures.js";
import { mockModel, screenReports } from "./support/widget-fakes.js";

const click = (el) => el.dispatchEvent(new MouseEvent("click", { bubbles: true }));

// jsdom lays nothing out (clientWidth is 0, from Element.prototype): the stage measures 900 × 500 here
beforeEach(() => {
  const size = (value) => ({
    configurable: true,
    get() {
      return this.classList.contains("cct-stage") ? value : 0;
    },
  });
  Object.defineProperty(HTMLElement.prototype, "clientWidth", size(900));
  Object.defineProperty(HTMLElement.prototype, "clientHeight", size(500));
});
afterEach(() => {
  delete HTMLElement.prototype.clientWidth;
  delete HTMLElement.prototype.clientHeight;
  document.body.replaceChildren();
  vi.restoreAllMocks();
});

describe("the widget with the real renderer (integration)", () => {
  test("traits, user gestures, a level-of-detail expansion and cleanup", () => {
    const model = mockModel({ _payload: lodTree(), selection: [9] });
    const el = document.createElement("div");
    document.body.append(el);
    const dispose = widget.render({ model, el });
    const renderer = el.cctRenderer;
    expect(el.querySelector(".cct-error")).toBeNull();
    expect(el.querySelector('.cct-node[data-id="9"]')).not.toBeNull();
    expect(renderer.selection).toEqual([9]);
    expect(screenReports(model).at(-1)).toEqual({ type: "screen", size: [900, 500] });

    // Python → view, in full-tree ids
    model.python("collapsed", [4]);
    expect(renderer.state.collapsed).toEqual([4]);
    expect(el.querySelector('path.cct-collapsed[data-id="4"]')).not.toBeNull();
    model.python("collapsed", []);

    // view → Python
    const saves = model.saves;
    click(el.querySelector('.cct-node[data-id="0"]'));
    expect(model.get("selection")).toEqual([0]);
    expect(model.saves).toBe(saves); // sent after the frame that shows it

    // a fold click asks Python, after the selection made before it; the new table keeps main
    // where it was
    const logged = model.log.length;
    click(el.querySelector('.cct-node[data-fold="0"]'));
    expect(model.sent.filter((m) => m.type !== "screen")).toEqual([{ type: "load_more", id: 1, node: 0 }]);
    expect(model.log.slice(logged).filter((m) => m.send?.type !== "screen")).toEqual([
      { save: { selection: [0] } },
      { send: { type: "load_more", id: 1, node: 0 } },
    ]);
    const before = renderer.screenPosition(0);
    model.python("_payload", expandedTree());
    model.deliver({ type: "reply", id: 1, ok: true, loaded: 1 });
    expect(el.querySelector('.cct-node[data-id="1"]')).not.toBeNull();
    const after = renderer.screenPosition(0);
    expect(after.x).toBeCloseTo(before.x, 6);
    expect(after.y).toBeCloseTo(before.y, 6);
    expect(renderer.selection).toEqual([0]);

    dispose();
    expect(model.listenerCount()).toBe(0);
    expect(el.querySelector(".cct-root")).toBeNull();
  });
});

describe("keys typed in the view", () => {
  test("stay in it in hosts without Lumino's mark, but for those that leave it", () => {
    const model = mockModel({ _payload: lodTree() });
    const el = document.createElement("div");
    document.body.append(el);
    const dispose = widget.render({ model, el });
    /** @type {string[]} */
    const host = [];
    const listen = (/** @type {KeyboardEvent} */ event) => host.push(event.key);
    document.addEventListener("keydown", listen);
    const stage = el.querySelector(".cct-stage");
    stage.focus();
    const press = (key) => stage.dispatchEvent(new KeyboardEvent("keydown", { key, bubbles: true }));
    for (const key of ["d", "ArrowDown", "Enter", "z"]) press(key);
    expect(host).toEqual([]);
    click(el.querySelector('.cct-node[data-id="0"]'));
    press("Escape"); // clears the selection: the view's
    expect(host).toEqual([]);
    expect(el.contains(document.activeElement)).toBe(true);
    press("Escape"); // nothing left to clear: the focus leaves, the host gets its Escape
    expect(host).toEqual(["Escape"]);
    stage.focus();
    press("Tab");
    expect(host).toEqual(["Escape", "Tab"]);
    document.removeEventListener("keydown", listen);
    dispose?.();
    el.remove();
  });
});
