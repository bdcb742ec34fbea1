// Forged messages (issue 29, point 5): node ids that are not of the tree are refused by the
// renderer with an error naming them (never dropped unseen, never an empty view); a refused
// selection is reported as a refused trait is; what Python refused of what the page sent is shown.
import { afterEach, describe, expect, test, vi } from "vitest";
import { bindTraits } from "../../src/widget/binding.js";
import { smallTree } from "../support/fixtures.js";
import { mountRenderer } from "../support/mount.js";
import { fakeRenderer, mockModel, mountWidget } from "../support/widget-fakes.js";

afterEach(() => {
  document.body.replaceChildren();
  vi.restoreAllMocks();
});

const mount = () => mountRenderer(smallTree()); // 6 nodes; roots 0 and 5
const drawn = (c) => c.querySelectorAll(".cct-nodes .cct-node").length;

describe("node ids that are not of the tree", () => {
  test.each([
    [{ collapsed: [2, 10 ** 9] }, /^collapsed: node id 1000000000 is out of range: this tree has 6 nodes/],
    [{ highlighted: [6] }, /^highlighted: node id 6 is out of range/],
    [{ focus: 10 ** 9 }, /^focused: node id 1000000000 is out of range/],
    [{ roots: [10 ** 9] }, /^visible_roots: node id 1000000000 is out of range/],
    [{ roots: [0, 1] }, /^visible_roots: node 1 is not a root/],
  ])("setState(%j) is refused, naming the trait; the view stays", (state, message) => {
    const { container, renderer } = mount();
    const before = renderer.state;
    expect(() => renderer.setState(state)).toThrow(message);
    expect(renderer.state).toEqual(before);
    expect(drawn(container)).toBe(6);
  });

  test("a selection of an id past the tree is refused; a good one applies", () => {
    const { container, renderer } = mount();
    renderer.setSelection([1]);
    expect(() => renderer.setSelection([2, 10 ** 9])).toThrow(/^selection: node id 1000000000 is out of range/);
    expect(renderer.selection).toEqual([1]);
    renderer.setState({ roots: [5] });
    expect(drawn(container)).toBe(1);
    renderer.setSelection([2]);
    expect(container.querySelector(".cct-status").textContent).toContain("1 selected outside the view");
  });

  test("bindTraits reports a refused selection as it does a refused trait", () => {
    const model = mockModel();
    const renderer = fakeRenderer(document.createElement("div"), {});
    renderer.setSelection = () => {
      throw new RangeError("selection: node id 99 is out of range");
    };
    const failed = vi.fn();
    const changed = vi.fn();
    bindTraits(model, renderer, changed, failed);
    expect(() => model.python("selection", [99])).not.toThrow();
    expect(failed).toHaveBeenCalledTimes(1);
    expect(failed.mock.calls[0][0].message).toBe("selection was not applied: selection: node id 99 is out of range");
    expect(changed).not.toHaveBeenCalled();
  });
});

describe("what Python refused", () => {
  test("shows in the widget; its report back is sent once", () => {
    const model = mockModel();
    const { el, dispose } = mountWidget(model);
    model.deliver({ type: "refused", message: "Python refused color_by='nope': no metric 'nope'" });
    const note = el.querySelector(".cct-error-note");
    expect(note?.getAttribute("role")).toBe("alert");
    expect(note?.querySelector("span")?.textContent).toBe("cctviz: Python refused color_by='nope': no metric 'nope'");
    expect(model.sent.filter((m) => m.type === "error")).toEqual([
      { type: "error", message: "Python refused color_by='nope': no metric 'nope'", where: "trait" },
    ]);
    model.deliver({ type: "reply", id: 1, ok: true }); // other messages are not refusals
    model.deliver({ type: "refused", message: 5 });
    expect(model.sent.filter((m) => m.type === "error")).toHaveLength(1);
    const listeners = model.listenerCount();
    dispose();
    expect(model.listenerCount()).toBeLessThan(listeners);
    expect(model.listenersOf("msg:custom")).toBe(0);
  });
});
