// Level-of-detail requests (js/src/widget/lod-client.js) against a mock model, and their anchor
// in the widget.
import { afterEach, describe, expect, test, vi } from "vitest";
import { MESSAGES } from "../../src/contract.js";
import { createLodClient } from "../../src/widget/lod-client.js";
import { mockModel, mountWidget } from "../support/widget-fakes.js";

afterEach(() => {
  document.body.replaceChildren();
  vi.restoreAllMocks();
});

function client() {
  const model = mockModel();
  const warn = vi.fn();
  return { model, warn, lod: createLodClient(model, { warn }) };
}

describe("requests and replies", () => {
  test("loadMore sends the contract's load_more message with a new request id each time", () => {
    const { model, lod } = client();
    lod.loadMore(4);
    lod.loadMore(-1);
    expect(model.sent).toEqual([
      { type: "load_more", id: 1, node: 4 },
      { type: "load_more", id: 2, node: -1 },
    ]);
    expect(Object.keys(model.sent[0])).toEqual(Object.keys(MESSAGES.load_more.fields));
    expect(lod.pending).toBe(2);
  });

  test("each reply settles the request with its id, in any order", async () => {
    const { model, lod } = client();
    const first = lod.loadMore(4);
    const second = lod.loadMore(9);
    model.deliver({ type: "reply", id: 2, ok: true, loaded: 3 });
    model.deliver({ type: "reply", id: 1, ok: true, loaded: 200 });
    await expect(first).resolves.toEqual({ type: "reply", id: 1, ok: true, loaded: 200, spread: null });
    await expect(second).resolves.toEqual({ type: "reply", id: 2, ok: true, loaded: 3, spread: null });
    expect(lod.pending).toBe(0);
  });

  test("a distribution request shares the id sequence, resolves with the checked spread, is no anchor", async () => {
    const { model, lod } = client();
    const loadMore = lod.loadMore(4);
    const spread = lod.distribution(7, "time");
    expect(model.sent[1]).toEqual({ type: "distribution", id: 2, node: 7, metric: "time" });
    expect(Object.keys(model.sent[1])).toEqual(Object.keys(MESSAGES.distribution.fields));
    expect(lod.anchor).toBe(4); // the load-more's node, not the hovered one
    expect(lod.pending).toBe(1);
    model.deliver({
      type: "reply",
      id: 2,
      ok: true,
      spread: {
        count: 4,
        min: 1,
        mean: 2.5,
        max: 4,
        std: 1.29,
        at_max: "rank 3",
        over: "rank",
        quantiles: [1, 2, 3, 4, "x"],
      },
    });
    await expect(spread).resolves.toEqual({
      count: 4,
      min: 1,
      mean: 2.5,
      max: 4,
      std: 1.29,
      atMax: "rank 3",
      over: "rank",
      quantiles: [1, 2, 3, 4],
    });
    model.deliver({ type: "reply", id: 1, ok: true, loaded: 5 });
    await expect(loadMore).resolves.toMatchObject({ loaded: 5 });
    const bad = lod.distribution(7, "nope");
    model.deliver({ type: "reply", id: 3, ok: false, error: "no metric 'nope'" });
    await expect(bad).rejects.toThrow("no metric 'nope'");
  });

  test("an error reply is reported and rejects the request", async () => {
    const { model, lod, warn } = client();
    const request = lod.loadMore(12345);
    model.deliver({ type: "reply", id: 1, ok: false, error: "no node 12345 in this tree" });
    await expect(request).rejects.toThrow("no node 12345 in this tree");
    expect(warn).toHaveBeenCalledWith("cctviz: no node 12345 in this tree");
    expect(lod.pending).toBe(0);
  });

  test("replies to unknown ids, second replies and other messages are ignored", async () => {
    const { model, lod, warn } = client();
    const request = lod.loadMore(4);
    const settled = vi.fn();
    request.then(settled, settled);
    model.deliver({ type: "reply", id: 99, ok: true, loaded: 1 });
    model.deliver({ type: "reply", id: 99, ok: false, error: "x" });
    model.deliver({ type: "other", id: 1 });
    model.deliver("reply");
    model.deliver(null);
    model.deliver({ type: "reply", id: "1", ok: true });
    model.deliver({ type: "reply", id: 1 }); // no ok: not a reply
    await Promise.resolve();
    expect(settled).not.toHaveBeenCalled();
    expect(lod.pending).toBe(1);
    model.deliver({ type: "reply", id: 1, ok: true, loaded: 5 });
    model.deliver({ type: "reply", id: 1, ok: false, error: "late" }); // a duplicate
    await expect(request).resolves.toMatchObject({ loaded: 5 });
    expect(warn).not.toHaveBeenCalled();
  });

  test("dispose rejects the waiting requests and stops listening", async () => {
    const { model, lod } = client();
    const request = lod.loadMore(4);
    expect(model.listenersOf("msg:custom")).toBe(1);
    lod.dispose();
    await expect(request).rejects.toThrow(/closed/);
    expect(model.listenersOf("msg:custom")).toBe(0);
    expect(lod.pending).toBe(0);
    await expect(lod.loadMore(5)).rejects.toThrow(/closed/);
    expect(model.sent).toHaveLength(1);
  });

  test("the anchor is the node of the latest request waiting for its reply", () => {
    const { model, lod } = client();
    expect(lod.anchor).toBeNull();
    lod.loadMore(4).catch(() => {});
    lod.loadMore(9).catch(() => {});
    expect(lod.anchor).toBe(9);
    model.deliver({ type: "reply", id: 2, ok: true, loaded: 1 });
    expect(lod.anchor).toBe(4);
    lod.loadMore(-1).catch(() => {}); // the hidden roots have no place on screen
    expect(lod.anchor).toBeNull();
    lod.dispose();
  });
});

describe("in the widget", () => {
  test("a fold click asks Python; the table that arrives before the reply keeps the node in place", async () => {
    const model = mockModel({ _payload: { rows: 5 } });
    const { renderer } = mountWidget(model);
    renderer.user.expand(4);
    expect(model.sent.filter((m) => m.type !== "screen")).toEqual([{ type: "load_more", id: 1, node: 4 }]);
    // Python: the new table first, then the reply
    model.python("_payload", { rows: 205 });
    const [table, state, how] = renderer.callsOf("setData").at(-1);
    expect(table.size).toBe(205);
    expect(state.colorBy).toBe("time");
    expect(how).toEqual({ anchor: 4 });
    model.deliver({ type: "reply", id: 1, ok: true, loaded: 200 });
    // a later table (another reducer, say) has no anchor
    model.python("_payload", { rows: 205 });
    expect(renderer.callsOf("setData").at(-1)[2]).toEqual({ anchor: null });
  });

  test("an error reply is a console warning; nothing is thrown", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const model = mockModel();
    const { renderer } = mountWidget(model);
    renderer.user.expand(3);
    model.deliver({ type: "reply", id: 1, ok: false, error: "node 3 has no hidden children" });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(warn).toHaveBeenCalledWith("cctviz: node 3 has no hidden children");
  });

  test("closing the view with a request waiting raises nothing", async () => {
    const model = mockModel();
    const { renderer, dispose } = mountWidget(model);
    renderer.user.expand(3);
    dispose();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(model.listenersOf("msg:custom")).toBe(0);
  });
});
