// Fakes for the widget glue's tests: an in-memory anywidget model and a renderer implementing the
// API the glue binds to (js/src/widget/renderer-api.js), so that these tests do not depend on the
// real renderer.
import { vi } from "vitest";
import { normalizeState, TRAITS, VIEW_DEFAULTS } from "../../src/contract.js";
import { createWidget } from "../../src/widget/index.js";

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

/**
 * A model as anywidget gives one: `get`, `set` (a `change:<name>` event when the value changes,
 * as Backbone does, synchronously), `save_changes`, `on`/`off`, `send`. `deliver(message)` plays
 * a message from Python; `saves` counts `save_changes`, `sent` holds what was sent; `synced`
 * holds what each `save_changes` sent; `log` both, in order.
 * @param {Record<string, unknown>} [traits] values other than the contract's defaults
 */
/** What the view reported of the screen (`screen` messages): its sizes and zooms, in order. */
export const screenReports = (model) => model.sent.filter((m) => m.type === "screen");

export function mockModel(traits = {}) {
  const values = Object.fromEntries(TRAITS.map((s) => [s.trait, structuredClone(s.default)]));
  Object.assign(values, { height: 560, color_by: "time", size_by: "time (inc)", _payload: { rows: 6 } }, traits);
  /** @type {Map<string, Set<Function>>} */
  const listeners = new Map();
  const dirty = new Set();
  const emit = (event, ...args) => {
    for (const listener of [...(listeners.get(event) ?? [])]) listener(...args);
  };
  const model = {
    get: (name) => values[name],
    set(name, value) {
      if (same(values[name], value)) return;
      values[name] = value;
      dirty.add(name);
      emit(`change:${name}`);
    },
    save_changes() {
      model.saves++;
      const state = Object.fromEntries([...dirty].map((name) => [name, values[name]]));
      model.synced.push(state);
      model.log.push({ save: state });
      dirty.clear();
    },
    on(event, listener) {
      if (!listeners.has(event)) listeners.set(event, new Set());
      listeners.get(event).add(listener);
    },
    off(event, listener) {
      listeners.get(event)?.delete(listener);
    },
    send(message) {
      model.sent.push(message);
      model.log.push({ send: message });
    },
    saves: 0,
    /** @type {Record<string, unknown>[]} */
    synced: [],
    /** @type {unknown[]} */
    sent: [],
    /** @type {unknown[]} saves and messages, in the order Python receives them */
    log: [],
    /** Python sets a trait (the change reaches the front end). */
    python(name, value) {
      values[name] = value;
      emit(`change:${name}`);
    },
    /** Python closes the widget (`w.close()`). */
    close() {
      emit("comm:close");
    },
    /** Any event (Backbone's `trigger`: ipywidgets' `comm_live_update`, say). */
    trigger: (event, ...args) => emit(event, ...args),
    /** A custom message from Python. */
    deliver(message) {
      emit("msg:custom", message, []);
    },
    /** How many listeners are registered, in all. */
    listenerCount: () => [...listeners.values()].reduce((n, set) => n + set.size, 0),
    listenersOf: (event) => listeners.get(event)?.size ?? 0,
  };
  return model;
}

/**
 * A renderer implementing the glue's API: it records calls in `calls` ([name, ...args]) and
 * normalises state as the contract says. `user.*` plays what a user does (the callbacks fire).
 * @param {HTMLElement} container
 * @param {Record<string, Function>} options
 * @param {{ width?: number, height?: number }} [stageSize] what the stage measures
 */
export function fakeRenderer(container, options, stageSize = { width: 800, height: 470 }) {
  const doc = container.ownerDocument;
  const element = doc.createElement("div");
  element.className = "cct-root";
  const stage = doc.createElement("div");
  element.append(stage);
  container.append(element);
  Object.defineProperty(stage, "clientWidth", { get: () => stageSize.width, configurable: true });
  Object.defineProperty(stage, "clientHeight", { get: () => stageSize.height, configurable: true });
  let state = { ...VIEW_DEFAULTS };
  let selection = [];
  let transform = { x: 0, y: 0, k: 1 };
  const calls = [];
  const renderer = {
    options,
    calls,
    stageSize,
    destroyed: false,
    callsOf: (name) => calls.filter((c) => c[0] === name).map((c) => c.slice(1)),
    setData(table, partial = {}, how = {}) {
      calls.push(["setData", table, partial, how]);
      state = { ...state, ...normalizeState(partial) };
    },
    setState(partial) {
      calls.push(["setState", partial]);
      state = { ...state, ...normalizeState(partial) };
    },
    get state() {
      return { ...state };
    },
    setSelection(ids) {
      calls.push(["setSelection", ids]);
      selection = [...ids];
    },
    get selection() {
      return [...selection];
    },
    setTransform(t) {
      calls.push(["setTransform", t]);
      transform = { ...t };
    },
    get transform() {
      return transform;
    },
    resize(width, height) {
      calls.push(["resize", width, height]);
    },
    setUnits(units) {
      calls.push(["setUnits", units]);
    },
    screenPosition: () => null,
    stage,
    element,
    destroy() {
      renderer.destroyed = true;
      element.remove();
    },
    user: {
      change(partial) {
        state = { ...state, ...normalizeState(partial) };
        options.onChange(partial);
      },
      select(ids) {
        selection = [...ids];
        options.onSelect(ids);
      },
      zoom(t) {
        if (t) transform = t;
        options.onZoom(t);
      },
      expand: (node) => options.onLoadMore(node),
      download: (format) => options.onDownload(format),
    },
  };
  return renderer;
}

/**
 * The widget with fake renderer modules: `decodeTable` turns `{ rows: n }` into `{ size: n }`
 * (anything else throws), `figureSVG`, `figureSteps` (two steps) and `svgToPng` are spies.
 * @param {{ width?: number, height?: number }} [stageSize]
 */
export function fakeDeps(stageSize) {
  const deps = {
    /** the renderers made, latest last */
    renderers: [],
    createRenderer: vi.fn((container, options) => {
      const r = fakeRenderer(container, options, stageSize ? { ...stageSize } : undefined);
      deps.renderers.push(r);
      return r;
    }),
    decodeTable: vi.fn((payload) => {
      if (typeof payload?.rows !== "number") throw new Error("cctviz payload version undefined does not match");
      return { size: payload.rows, payload };
    }),
    figureSVG: vi.fn(() => ({ svg: "<svg/>", nodes: 1 })),
    figureSteps: vi.fn(function* () {
      yield;
      return { svg: "<svg/>", nodes: 1 };
    }),
    svgToPng: vi.fn(async () => "UE5H"),
  };
  return deps;
}

/**
 * Renders the widget for `model` into a fresh element in the page.
 * @param {ReturnType<typeof mockModel>} model
 * @param {ReturnType<typeof fakeDeps>} [deps]
 */
export function mountWidget(model, deps = fakeDeps()) {
  const parent = document.createElement("div");
  const el = document.createElement("div");
  parent.append(el);
  document.body.append(parent);
  const dispose = createWidget(deps).render({ model, el });
  return { el, parent, deps, dispose, renderer: deps.renderers.at(-1) };
}
