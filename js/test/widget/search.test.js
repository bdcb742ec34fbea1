// The search bound to the model: Python's count under level of detail reaches the renderer, and
// a step Python took (show_match) moves the view to its match.
import { expect, test, vi } from "vitest";
import { bindSearch } from "../../src/widget/search.js";
import { mockModel } from "../support/widget-fakes.js";

test("Python's count and Python's steps reach the renderer; unbinding stops them", () => {
  const model = mockModel();
  const renderer = { setSearchCount: vi.fn(), command: vi.fn() };
  const stop = bindSearch({ model, renderer });
  expect(renderer.setSearchCount).toHaveBeenLastCalledWith(null); // nothing counted yet
  model.python("_search_count", { search: "MPI", regex: true, case: false, count: 12 });
  expect(renderer.setSearchCount).toHaveBeenLastCalledWith({
    search: "MPI",
    regex: true,
    caseSensitive: false,
    count: 12,
  });
  model.deliver({ type: "show_match", node: 41 });
  model.deliver({ type: "show_match", node: "41" }); // not a node id: ignored
  model.deliver({ type: "reply", id: 1, ok: true }); // not this binding's
  expect(renderer.command.mock.calls).toEqual([["showMatch", 41]]);
  renderer.command.mockImplementation(() => {
    throw new RangeError("not in the table");
  });
  expect(() => model.deliver({ type: "show_match", node: 7 })).not.toThrow();
  stop();
  model.deliver({ type: "show_match", node: 3 });
  expect(renderer.command).toHaveBeenCalledTimes(2);
  expect(model.listenerCount()).toBe(0);
});
