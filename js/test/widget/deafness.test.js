// A model anywidget gave up on (js/src/widget/deafness.js): found by a message nobody handles,
// its messages routed back to ipywidgets' own handler and its state asked for again; a view in a
// notebook's output area then hides the static picture's note after it, and says so where the
// model cannot be recovered.
import { afterEach, describe, expect, test, vi } from "vitest";
import { DEAF_NOTE, watchDeafness } from "../../src/widget/deafness.js";
import { createWidget } from "../../src/widget/index.js";
import { followedByPicture } from "../../src/widget/snapshot.js";
import { fakeDeps, mockModel } from "../support/widget-fakes.js";

const GAVE_UP = () => Promise.reject(new Error("[anywidget] Failed to initialize model."));
const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

/**
 * An ipywidgets model as anywidget builds it: ipywidgets' handler on the prototype of anywidget's
 * wrapper, which rejects (`gaveUp`) or passes on; a comm whose handler can be replaced.
 */
function innerModel({ gaveUp = true, comm = true, model = {} } = {}) {
  const handled = [];
  const base = {
    _handle_comm_msg(msg) {
      handled.push({ self: this, msg });
      return Promise.resolve();
    },
  };
  const wrapper = Object.create(base, {
    _handle_comm_msg: {
      value(msg) {
        return gaveUp ? GAVE_UP() : base._handle_comm_msg.call(this, msg);
      },
    },
  });
  Object.setPrototypeOf(model, wrapper);
  if (comm) {
    model.comm = {
      handler: null,
      sent: [],
      on_msg(handler) {
        this.handler = handler;
      },
      send(data) {
        this.sent.push(data);
        return `request-${this.sent.length}`;
      },
    };
  }
  return { inner: model, handled };
}

const calls = () => ({ deaf: vi.fn(), recovered: vi.fn(), lost: vi.fn() });

describe("watchDeafness", () => {
  test("a model anywidget initialised is left alone", async () => {
    const { inner, handled } = innerModel({ gaveUp: false });
    const on = calls();
    expect(await watchDeafness(Promise.resolve(inner), on)).toBe(false);
    expect(handled).toHaveLength(1); // the probe, which ipywidgets ignores
    expect([on.deaf, on.recovered, on.lost].map((f) => f.mock.calls.length)).toEqual([0, 0, 0]);
    expect(inner.comm.handler).toBe(null);
    expect(await watchDeafness(Promise.resolve(null), on)).toBe(false); // no model found (marimo)
  });

  test("another rejection is not anywidget giving up", async () => {
    const { inner } = innerModel({ gaveUp: false });
    Object.defineProperty(inner, "_handle_comm_msg", {
      value: () => Promise.reject(new Error("Could not process update msg")),
    });
    const on = calls();
    expect(await watchDeafness(Promise.resolve(inner), on)).toBe(false);
    expect(on.deaf).not.toHaveBeenCalled();
    expect(inner.comm.sent).toEqual([]);
  });

  test("a model anywidget gave up on gets its messages back and its whole state again", async () => {
    const { inner, handled } = innerModel();
    const on = calls();
    const watched = watchDeafness(Promise.resolve(inner), on);
    await flush();
    expect(on.deaf).toHaveBeenCalledOnce();
    expect(inner.comm.sent).toEqual([{ method: "request_state" }]);
    // Python's messages now reach ipywidgets' handler, on the model; recovered once the reply
    // to the request (Python's whole state) is in the model
    const update = { content: { data: { method: "update", state: { collapsed: [2] } } }, parent_header: {} };
    inner.comm.handler(update);
    await flush();
    expect(handled).toEqual([{ self: inner, msg: update }]);
    expect(on.recovered).not.toHaveBeenCalled();
    const reply = { content: { data: { method: "update", state: {} } }, parent_header: { msg_id: "request-1" } };
    inner.comm.handler(reply);
    expect(await watched).toBe(true);
    expect(on.recovered).toHaveBeenCalledOnce();
    expect(on.lost).not.toHaveBeenCalled();
    expect(handled.map((h) => h.msg)).toEqual([update, reply]);
    // another view of the same model: deaf still (the wrapper stays), asks nothing again
    const again = calls();
    expect(await watchDeafness(Promise.resolve(inner), again)).toBe(true);
    expect([again.deaf, again.recovered].map((f) => f.mock.calls.length)).toEqual([1, 1]);
    expect(inner.comm.sent).toHaveLength(1);
  });

  test("a model without a comm to take back is lost", async () => {
    const { inner } = innerModel({ comm: false });
    const on = calls();
    expect(await watchDeafness(Promise.resolve(inner), on)).toBe(true);
    expect(on.lost).toHaveBeenCalledOnce();
    expect(on.recovered).not.toHaveBeenCalled();
  });
});

/** A view in a JupyterLab output area, followed by the output `next` (its HTML). */
function viewInOutputs(model, next) {
  const area = document.createElement("div");
  area.className = "jp-OutputArea";
  area.innerHTML =
    '<div class="jp-OutputArea-child"><div class="jp-OutputArea-output"></div></div>' +
    `<div class="jp-OutputArea-child">${next}</div>`;
  document.body.append(area);
  const el = document.createElement("div");
  area.querySelector(".jp-OutputArea-output").append(el);
  const deps = fakeDeps();
  const dispose = createWidget(deps).render({ model, el });
  return { el, area, deps, dispose };
}

const NOTE =
  '<div class="jp-OutputArea-output" data-mime-type="text/plain"><pre>cctviz: CCT(GraphFrame: 34 nodes)\n' +
  "The interactive view is drawn by cctviz's JavaScript</pre></div>";

/** A model (proxy and inner model in one, as the other tests' fakes) found by connection.js. */
function managed(options) {
  const model = mockModel();
  model.widget_manager = { _models: { a: Promise.resolve(model) } };
  return innerModel({ ...options, model }).inner;
}

describe("the view of a model anywidget gave up on", () => {
  const views = [];
  afterEach(() => {
    for (const view of views.splice(0)) {
      view.dispose();
      view.area.remove();
    }
  });

  test("followedByPicture: the static picture's note or HTML right after the view's output", () => {
    const note = viewInOutputs(mockModel(), NOTE);
    const html = viewInOutputs(
      mockModel(),
      '<div class="jp-OutputArea-output"><div class="cctviz-static"></div></div>',
    );
    const other = viewInOutputs(
      mockModel(),
      '<div class="jp-OutputArea-output" data-mime-type="text/plain"><pre>42</pre></div>',
    );
    views.push(note, html, other);
    expect([note, html, other].map((v) => followedByPicture(v.el))).toEqual([true, true, false]);
    const loose = document.createElement("div"); // in a container (VBox): no output of its own
    expect(followedByPicture(loose)).toBe(false);
  });

  test("hides the note after it (it missed _static_follows) and takes its messages back", async () => {
    const model = managed();
    const view = viewInOutputs(model, NOTE);
    views.push(view);
    expect(model.get("_static_follows")).toBe(false); // Python's `true` was dropped
    expect(view.el.dataset.cctStatic).toBeUndefined();
    await flush();
    await flush();
    expect(view.el.dataset.cctStatic).toBe("follows"); // the stylesheet hides the note's row
    expect(model.comm.sent).toEqual([{ method: "request_state" }]);
    expect(view.el.querySelector(".cct-error-note")).toBe(null);
    // Python's whole state comes again; its table, equal to the one drawn, comes as a new object
    // without a change event (Backbone compares deeply): the view draws the model's table again
    const renderer = view.deps.renderers.at(-1);
    const drawn = renderer.callsOf("setData").length;
    expect(drawn).toBeGreaterThan(0);
    model.comm.handler({ content: { data: { method: "update" } }, parent_header: { msg_id: "request-1" } });
    await flush();
    expect(renderer.callsOf("setData").length).toBe(drawn + 1);
  });

  test("a deaf view not followed by its picture stays unmarked", async () => {
    const model = managed();
    const view = viewInOutputs(model, '<div class="jp-OutputArea-output" data-mime-type="text/plain">42</div>');
    views.push(view);
    await flush();
    await flush();
    expect(view.el.dataset.cctStatic).toBeUndefined();
    expect(model.comm.sent).toEqual([{ method: "request_state" }]);
  });

  test("says what happened where the model cannot be recovered", async () => {
    const model = managed({ comm: false });
    const view = viewInOutputs(model, NOTE);
    views.push(view);
    await flush();
    await flush();
    expect(view.el.dataset.cctStatic).toBe("follows");
    const note = view.el.querySelector(".cct-error-note");
    expect(note?.textContent).toContain(DEAF_NOTE);
    expect(note?.textContent).toContain("Failed to initialize model");
  });
});
