// Traits ⇄ renderer, through the contract: each view-state trait is one key of the renderer's
// view state (contract.json says which), node ids are full-tree ids on both sides.
//
// Python → renderer: one `change:<trait>` listener per view trait (anywidget has no catch-all
// change event), plus the selection, the units and the height. Renderer → Python: what the user
// changed is set on the model and sent with one `save_changes`, after the frame that shows it
// (`createSaves`). No echo either way: the renderer
// does not report what it is told (`setState`, `setSelection`), and a trait change that the
// renderer already shows (our own `model.set` coming back) is not passed on.
import { VIEW_DEFAULTS, VIEW_SPECS } from "../contract.js";

/**
 * @typedef {import("../contract.js").ViewState} ViewState
 * @typedef {import("../contract.js").ViewKey} ViewKey
 * @typedef {import("./model.js").CCTModel} CCTModel
 * @typedef {import("./model.js").TraitName} TraitName
 * @typedef {import("./model.js").Traits} Traits
 * @typedef {import("./model.js").ChangeEvent} ChangeEvent
 * @typedef {import("./renderer-api.js").TableLike} TableLike
 */

/** @type {ReadonlyArray<{ trait: TraitName, key: ViewKey }>} the view traits, in contract order */
export const VIEW_TRAITS = VIEW_SPECS.map((s) => ({
  trait: /** @type {TraitName} */ (s.trait),
  key: /** @type {ViewKey} */ (s.key),
}));
const TRAIT_OF_KEY = new Map(VIEW_TRAITS.map(({ trait, key }) => [key, trait]));

/**
 * The view state that the traits hold (a missing value: the contract's default).
 * @param {CCTModel} model
 * @param {ReadonlyArray<{ trait: TraitName, key: ViewKey }>} [traits] only these
 * @returns {Partial<ViewState>}
 */
export function viewState(model, traits = VIEW_TRAITS) {
  /** @type {Record<string, unknown>} */
  const state = {};
  for (const { trait, key } of traits) state[key] = model.get(trait) ?? VIEW_DEFAULTS[key];
  return /** @type {Partial<ViewState>} */ (state);
}

/**
 * Equality of trait values (JSON data: numbers, strings, booleans, null, arrays).
 * @param {unknown} a @param {unknown} b
 * @returns {boolean}
 */
export function sameValue(a, b) {
  if (a === b) return true;
  if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
  return a.every((v, i) => sameValue(v, b[i]));
}

/**
 * Sets one trait from a view state key's value (the renderer checked it against the contract).
 * @param {CCTModel} model @param {TraitName} trait @param {unknown} value
 */
function setTrait(model, trait, value) {
  model.set(trait, /** @type {Traits[TraitName]} */ (value));
}

/**
 * The renderer's `onSelect` and `onChange`: what the user did, onto the traits.
 * @param {CCTModel} model
 * @param {() => void} [changed] called after each change (the static image is redrawn later)
 * @param {() => void} [save] sends what was set to Python (see `createSaves`; default: at once)
 * @returns {{ onSelect: (ids: number[]) => void, onChange: (partial: Partial<ViewState>) => void }}
 */
export function traitWriter(model, changed = () => {}, save = () => model.save_changes()) {
  return {
    onSelect(ids) {
      model.set("selection", [...ids]);
      save();
      changed();
    },
    onChange(partial) {
      let any = false;
      for (const [key, value] of Object.entries(partial)) {
        const trait = TRAIT_OF_KEY.get(/** @type {ViewKey} */ (key));
        if (!trait) continue; // not view state: nothing in Python mirrors it
        setTrait(model, trait, value);
        any = true;
      }
      if (!any) return;
      save();
      changed();
    },
  };
}

/**
 * What the user changed goes to Python after the frame that shows it. Sending it from the
 * gesture's own task put the message's serialising, and the kernel's busy and idle replies that
 * the front end then shows, between the gesture and its frame: an expand of 9,000 nodes came to
 * the screen 6 ms later (benchmarks/gestures.py). Changes made before the send go in one message.
 * Nothing overtakes it: a message sent through `messenger` (a request, a report) and a save made
 * at once send what is waiting first, so Python sees them in the order the user made them.
 * @param {CCTModel} model
 * @param {(send: () => void) => void} later runs `send` after the next frame (see `afterFrame`)
 * @returns {{ save: () => void, flush: () => void, cancel: () => void, messenger: CCTModel }}
 *   `save()`: send what was set, later; `flush()`: send what waits, now; `cancel()`: send
 *   nothing more (the model is closed); `messenger`: the model, whose `send` and `save_changes`
 *   first send what waits
 */
export function createSaves(model, later) {
  let waiting = false;
  const flush = () => {
    if (!waiting) return;
    waiting = false;
    model.save_changes();
  };
  const messenger = /** @type {CCTModel} */ (
    new Proxy(model, {
      get(target, key) {
        if (key === "send") {
          return (/** @type {Parameters<CCTModel["send"]>} */ ...args) => {
            flush();
            return target.send(...args);
          };
        }
        if (key === "save_changes") {
          return () => {
            waiting = false; // this save sends what was waiting too
            target.save_changes();
          };
        }
        const value = Reflect.get(target, key, target);
        return typeof value === "function" ? value.bind(target) : value;
      },
    })
  );
  return {
    save() {
      if (waiting) return;
      waiting = true;
      later(flush);
    },
    flush,
    cancel() {
      waiting = false;
    },
    messenger,
  };
}

/**
 * Runs a function after the next frame of `win` has been drawn (in the task after its animation
 * frame callbacks), or within 100 ms if the page draws no frame (a hidden tab has none).
 * @param {Window} win
 * @returns {(run: () => void) => void}
 */
export function afterFrame(win) {
  return (run) => {
    let done = false;
    const once = () => {
      if (done) return;
      done = true;
      run();
    };
    win.requestAnimationFrame(() => win.setTimeout(once, 0));
    win.setTimeout(once, 100);
  };
}

/**
 * Python → renderer: from now on every change of a view trait, the selection, the units and the
 * height goes to `renderer`. Sets the height at once (the state and units go with the data, see
 * index.js).
 * @template {TableLike} T
 * @param {CCTModel} model
 * @param {import("./renderer-api.js").Renderer<T>} renderer
 * @param {() => void} [changed] called after each change that reached the renderer
 * @param {(error: unknown) => void} [failed] a trait the renderer refused (Python checks every
 *   value first, so this is a bug; the user sees it, see errors.js)
 * @param {() => boolean} [dataPending] true while the model holds a table the renderer has not
 *   drawn yet: Python sent it with traits that name its metrics (another reducer: size becomes
 *   "time (inc) (mean)") in one message, and its change may come after theirs; drawing the
 *   table applies the whole view state, so a trait waits for it
 * @returns {() => void} removes every listener
 */
export function bindTraits(model, renderer, changed = () => {}, failed = () => {}, dataPending = () => false) {
  /** @type {Array<[ChangeEvent, () => void]>} */
  const listeners = VIEW_TRAITS.map(({ trait, key }) => [
    `change:${trait}`,
    () => {
      if (dataPending()) return; // the new table comes with the whole state: see above
      const value = viewState(model, [{ trait, key }])[key];
      if (sameValue(value, renderer.state[key])) return; // shown already (our own change back)
      try {
        renderer.setState({ [key]: value });
      } catch (error) {
        failed(new Error(`${trait} was not applied: ${error instanceof Error ? error.message : error}`));
        return;
      }
      changed();
    },
  ]);
  listeners.push(
    [
      "change:selection",
      () => {
        const ids = model.get("selection") ?? [];
        if (sameValue(ids, renderer.selection)) return;
        try {
          if (!dataPending()) renderer.setSelection(ids); // else the new table is drawn with it (index.js)
        } catch (error) {
          failed(new Error(`selection was not applied: ${error instanceof Error ? error.message : error}`));
          return;
        }
        changed();
      },
    ],
    [
      "change:units",
      () => {
        renderer.setUnits(model.get("units") ?? {});
        changed();
      },
    ],
    ["change:height", () => setHeight(model, renderer)],
  );
  for (const [event, listener] of listeners) model.on(event, listener);
  setHeight(model, renderer);
  return () => {
    for (const [event, listener] of listeners) model.off(event, listener);
  };
}

/**
 * The height goes on the renderer's element: ipywidgets' layout view may reset the style of the
 * element anywidget gives us.
 * @template {TableLike} T
 * @param {CCTModel} model @param {import("./renderer-api.js").Renderer<T>} renderer
 */
function setHeight(model, renderer) {
  renderer.element.style.height = `${model.get("height")}px`;
}
