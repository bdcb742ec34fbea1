// A view whose kernel is gone (js/src/widget/connection.js): it says so, sends and saves nothing,
// refuses requests and rejects those waiting (handled), keeps what works without Python, and
// takes up again when ipywidgets says the model is live.
import { afterEach, describe, expect, test, vi } from "vitest";
import { createTablePane } from "../../src/cct/pane/table-pane.js";
import { DisconnectedError, isDisconnected, watchConnection } from "../../src/widget/connection.js";
import { DISCONNECTED_NOTE } from "../../src/widget/errors.js";
import { createLodClient } from "../../src/widget/lod-client.js";
import { NO_KERNEL_ROWS } from "../../src/widget/pane.js";
import { fakeDeps, mockModel, mountWidget } from "../support/widget-fakes.js";

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));
const noteOf = (el) => el.querySelector(".cct-connection-note");

/**
 * A model with an ipywidgets widget manager behind it: `inner` is the Backbone model the proxy
 * stands for (here the same object), with `comm_live`; `unplug()` is the kernel restarting.
 */
function managedModel(traits = {}, { live = true } = {}) {
  const model = mockModel(traits);
  const other = { trigger: vi.fn() }; // another widget's model
  model.comm_live = live;
  model.widget_manager = { _models: { a: Promise.resolve(other), b: Promise.resolve(model) } };
  const setLive = (value) => {
    model.comm_live = value;
    model.trigger("comm_live_update");
  };
  return { model, other, unplug: () => setLive(false), plugIn: () => setLive(true) };
}

/** A model whose sends throw as JupyterLab's closed comm does. */
function closedComm(model) {
  model.send = vi.fn(() => {
    throw new Error("Cannot send");
  });
  return model;
}

const unhandled = [];
const onUnhandled = (reason) => unhandled.push(reason);
process.on("unhandledRejection", onUnhandled);
afterEach(() => {
  document.body.replaceChildren();
  vi.restoreAllMocks();
  expect(unhandled.splice(0)).toEqual([]);
});

describe("the connection", () => {
  test("is live until a send throws; then sends and saves nothing and throws nothing", () => {
    const model = closedComm(mockModel());
    const changes = [];
    const connection = watchConnection(model, (live) => changes.push(live));
    expect(connection.live).toBe(true);
    expect(() => connection.model.send({ type: "screen", size: [1, 2] })).not.toThrow();
    expect(connection.live).toBe(false);
    expect(changes).toEqual([false]);
    connection.model.send({ type: "screen", size: [1, 2] });
    connection.model.save_changes();
    expect(model.send).toHaveBeenCalledTimes(1);
    expect(model.saves).toBe(0);
  });

  test("follows the comm_live of the ipywidgets model behind the proxy", async () => {
    const { model, other, unplug, plugIn } = managedModel();
    const changes = [];
    const connection = watchConnection(model, (live) => changes.push(live));
    await flush();
    expect(other.trigger).toHaveBeenCalled(); // asked, and not taken for ours
    expect(connection.live).toBe(true);
    unplug();
    expect(connection.live).toBe(false);
    plugIn();
    expect(connection.live).toBe(true);
    expect(changes).toEqual([false, true]);
    connection.dispose();
    expect(model.listenersOf("comm_live_update")).toBe(0);
    expect(model.listenersOf("cctviz:probe")).toBe(0);
  });

  test("a model restored without a kernel (a reopened notebook) is disconnected from the start", async () => {
    const { model } = managedModel({}, { live: false });
    const connection = watchConnection(model, () => {});
    await flush();
    expect(connection.live).toBe(false);
  });

  test("a request is refused without a kernel, waiting ones are rejected", async () => {
    const model = mockModel();
    let live = true;
    const refused = vi.fn();
    const client = createLodClient(model, { live: () => live, refused });
    const waiting = client.loadMore(3);
    client.cutOff();
    await expect(waiting).rejects.toSatisfy(isDisconnected);
    expect(client.pending).toBe(0);
    live = false;
    await expect(client.request("rows", { mode: "functions", path: [] })).rejects.toBeInstanceOf(DisconnectedError);
    await expect(client.distribution(3, "time")).rejects.toBeInstanceOf(DisconnectedError);
    expect(model.sent).toEqual([{ type: "load_more", id: 1, node: 3 }]);
    expect(refused).toHaveBeenCalledTimes(2);
  });
});

describe("in the widget", () => {
  test("after the kernel restarts: a note, fold clicks and picks raise nothing, a waiting load-more is settled", async () => {
    const { model, unplug } = managedModel({ _payload: { rows: 5 } });
    const { el, renderer } = mountWidget(model);
    await flush();
    expect(noteOf(el)).toBeNull();
    renderer.user.expand(4); // waits for Python
    unplug();
    expect(noteOf(el).textContent).toBe(DISCONNECTED_NOTE);
    expect(el.classList.contains("cct-disconnected")).toBe(true);
    const sent = model.sent.length;
    renderer.user.expand(2);
    renderer.user.select([1]);
    renderer.user.zoom({ x: 1, y: 2, k: 3 });
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(model.sent.length).toBe(sent); // nothing queued: nothing could arrive
    expect(model.get("selection")).toEqual([1]); // the view still shows the user's selection
    expect(noteOf(el).classList.contains("cct-flash")).toBe(true);
    // the load-more was rejected (handled): a new table has no node waiting to be kept in place
    model.python("_payload", { rows: 6 });
    expect(renderer.callsOf("setData").at(-1)[2]).toEqual({ anchor: null });
  });

  test("a send that throws ('Cannot send') disconnects the view instead of raising", async () => {
    const model = closedComm(mockModel({ _payload: { rows: 5 } }));
    const { el, renderer } = mountWidget(model);
    expect(() => renderer.user.expand(4)).not.toThrow();
    await flush();
    expect(noteOf(el).textContent).toBe(DISCONNECTED_NOTE);
  });

  test("the table pane of a view without a kernel says why it is empty; the kernel back, rows load", async () => {
    const { model, plugIn } = managedModel({ table_mode: "functions" }, { live: false });
    const deps = { ...fakeDeps(), createTablePane };
    const { el } = mountWidget(model, deps);
    await flush();
    await flush();
    expect(el.querySelector(".cct-pane-note").textContent).toBe(NO_KERNEL_ROWS);
    expect(model.sent.filter((m) => m.type === "rows")).toHaveLength(1); // sent before it knew: no answer
    plugIn();
    await flush();
    expect(noteOf(el)).toBeNull();
    expect(model.sent.filter((m) => m.type === "rows")).toHaveLength(2);
  });
});
