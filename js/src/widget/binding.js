// Traits ⇄ renderer, through the contract: each view-state trait is one key of the renderer's
// view state (contract.json says which), node ids are full-tree ids on both sides.
//
// Python → renderer: one `change:<trait>` listener per view trait (anywidget has no catch-all
// change event), plus the selection, the units and the height. Renderer → Python: what the user
// changed is set on the model at once and sent with one `save_changes` after the frame that shows
// it (`createSaves`); until it is sent the view holds it, so nothing coming from the kernel
// meanwhile (ipywidgets' echo of an older send, Python's own change) overwrites it. No echo
// either way: the renderer does not report what it is told (`setState`, `setSelection`), and a
// trait change that the renderer already shows (our own `model.set` coming back) is not passed on.
import { TRAITS, VIEW_DEFAULTS, VIEW_SPECS } from "../contract.js";

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
/** The contract's least height of the widget (pixels). */
const MIN_HEIGHT = Number(TRAITS.find((s) => s.trait === "height")?.min ?? 0);
const TRAIT_OF_KEY = new Map(VIEW_TRAITS.map(({ trait, key }) => [key, trait]));

/** How deep we are in a `model.set` of the page's own (a user's change, not the kernel's). */
let settingLocally = 0;

/**
 * What the user changed in a view and has not been sent yet: the trait's value as the user set
 * it, by model (the model object one view is given; see `createSaves`).
 * @type {WeakMap<CCTModel, Map<TraitName, { value: unknown }>>}
 */
const HELD = new WeakMap();

/**
 * A trait's value as the view has it: what the user set and is not sent yet, else the model's.
 * @template {TraitName} K
 * @param {CCTModel} model @param {K} trait
 * @returns {Traits[K]}
 */
function shown(model, trait) {
  const held = settingLocally ? undefined : HELD.get(model)?.get(trait); // the page's newer value
  return held ? /** @type {Traits[K]} */ (held.value) : model.get(trait);
}

/**
 * The view state that the traits hold (a missing value: the contract's default); a trait the user
 * changed and that is not sent yet has the user's value (see `createSaves`).
 * @param {CCTModel} model
 * @param {ReadonlyArray<{ trait: TraitName, key: ViewKey }>} [traits] only these
 * @returns {Partial<ViewState>}
 */
export function viewState(model, traits = VIEW_TRAITS) {
  /** @type {Record<string, unknown>} */
  const state = {};
  for (const { trait, key } of traits) state[key] = shown(model, trait) ?? VIEW_DEFAULTS[key];
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
 * Sets one trait for the page (what a user did in some view): no view holds that trait's older
 * value any more (see `createSaves`).
 * @param {CCTModel} model @param {TraitName} trait @param {unknown} value
 */
function setLocally(model, trait, value) {
  settingLocally++;
  try {
    setTrait(model, trait, value);
  } finally {
    settingLocally--;
  }
}

/**
 * The renderer's `onSelect` and `onChange`: what the user did, onto the traits.
 * @param {CCTModel} model
 * @param {() => void} [changed] called after each change (the static image is redrawn later)
 * @param {(traits: TraitName[]) => void} [save] sends the traits just set to Python (see
 *   `createSaves`; default: at once)
 * @returns {{ onSelect: (ids: number[]) => void, onChange: (partial: Partial<ViewState>) => void }}
 */
export function traitWriter(model, changed = () => {}, save = () => model.save_changes()) {
  return {
    onSelect(ids) {
      setLocally(model, "selection", [...ids]);
      save(["selection"]);
      changed();
    },
    onChange(partial) {
      /** @type {TraitName[]} */
      const traits = [];
      for (const [key, value] of Object.entries(partial)) {
        const trait = TRAIT_OF_KEY.get(/** @type {ViewKey} */ (key));
        if (!trait) continue; // not view state: nothing in Python mirrors it
        setLocally(model, trait, value);
        traits.push(trait);
      }
      if (!traits.length) return;
      save(traits);
      changed();
    },
  };
}

/**
 * What the user changed goes to Python after the frame that shows it. Sending it from the
 * gesture's own task put the message's serialising, and the kernel's busy and idle replies that
 * the front end then shows, between the gesture and its frame: an expand of 9,000 nodes came to
 * the screen 6 ms later (benchmarks/gestures.py). Changes made before the send go in one message.
 *
 * Until it is sent, the view holds what the user set: the model is set at once, and whatever the
 * kernel sets meanwhile on a held trait is undone (in a microtask, before the page takes its next
 * input or draws) and not shown. It comes from before the user's change reaches the kernel:
 * ipywidgets' echo of an earlier send (the model applies the echo of its latest message of a
 * trait, even when a newer value is set and not yet saved), or Python's own change, which the
 * user's then overrides in the kernel too. Without this a shift-click one kernel round trip after
 * another toggled what the echo had just brought back, and lost the one before (issue 29). Once
 * sent, ipywidgets itself drops the echoes of older messages.
 *
 * Nothing overtakes it: a message sent through `messenger` (a request, a report) and a save made
 * at once send what is waiting first, so Python sees them in the order the user made them; a
 * trait the page sets again (in this view, another view of the same widget, through `messenger`)
 * is no longer held here: that value is newer. (anywidget gives each view a model object of its
 * own, so views cannot share what they hold.)
 * @param {CCTModel} model the model the view's other parts read and listen to (what is held is
 *   keyed by it: `viewState`, `bindTraits` and `traitWriter` must be given the same object)
 * @param {(send: () => void) => void} later runs `send` after the next frame (see `afterFrame`)
 * @param {Pick<CCTModel, "send" | "save_changes">} [sender] what sends (default: `model`; the
 *   view passes connection.js's guarded model, which drops what cannot be delivered)
 * @returns {{ save: (traits?: TraitName[]) => void, flush: () => void, cancel: () => void,
 *   messenger: CCTModel }}
 *   `save(traits)`: hold those traits' values and send what was set, later; `flush()`: send what
 *   waits, now; `cancel()`: send nothing more (the model is closed); `messenger`: the model,
 *   whose `send` and `save_changes` first send what waits
 */
export function createSaves(model, later, sender = model) {
  let waiting = false;
  /** @type {Map<TraitName, { value: unknown }>} */
  const held = new Map();
  HELD.set(model, held);
  /** @type {Map<TraitName, () => void>} */
  const guards = new Map();
  /** @param {TraitName} trait */
  const restore = (trait) => {
    const hold = held.get(trait);
    if (hold && !sameValue(model.get(trait), hold.value)) setTrait(model, trait, hold.value);
  };
  /** @param {TraitName} trait */
  const hold = (trait) => {
    const value = model.get(trait);
    const current = held.get(trait);
    if (current) {
      current.value = value;
      return;
    }
    held.set(trait, { value });
    const guard = () => {
      if (sameValue(model.get(trait), held.get(trait)?.value)) return;
      // the page set it (this view again, another view of the model, the table pane): newer
      if (settingLocally) release(trait, false);
      else queueMicrotask(() => restore(trait)); // the kernel set it
    };
    guards.set(trait, guard);
    model.on(/** @type {import("./model.js").ChangeEvent} */ (`change:${trait}`), guard);
  };
  /** @param {TraitName} trait @param {boolean} keep the model gets the held value again */
  const release = (trait, keep) => {
    if (keep) restore(trait);
    held.delete(trait);
    const guard = guards.get(trait);
    if (guard) model.off(/** @type {import("./model.js").ChangeEvent} */ (`change:${trait}`), guard);
    guards.delete(trait);
  };
  const releaseAll = (/** @type {boolean} */ keep) => {
    for (const trait of [...held.keys()]) release(trait, keep);
  };
  const flush = () => {
    if (!waiting) return;
    waiting = false;
    releaseAll(true);
    sender.save_changes();
  };
  const messenger = /** @type {CCTModel} */ (
    new Proxy(model, {
      get(target, key) {
        if (key === "send") {
          return (/** @type {Parameters<CCTModel["send"]>} */ ...args) => {
            flush();
            return sender.send(...args);
          };
        }
        if (key === "save_changes") {
          return () => {
            waiting = false; // this save sends what was waiting too
            releaseAll(true);
            sender.save_changes();
          };
        }
        if (key === "set") {
          return (/** @type {TraitName} */ trait, /** @type {unknown} */ value) => {
            setLocally(target, trait, value); // newer than a held value: not held any more
          };
        }
        const value = Reflect.get(target, key, target);
        return typeof value === "function" ? value.bind(target) : value;
      },
    })
  );
  return {
    save(traits = []) {
      for (const trait of traits) hold(trait);
      if (waiting) return;
      waiting = true;
      later(flush);
    },
    flush,
    cancel() {
      waiting = false;
      releaseAll(false);
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
      // shown already: our own change back, or the kernel's while the user's waits to be sent
      if (sameValue(value, renderer.state[key])) return;
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
        const ids = shown(model, "selection") ?? [];
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
        const units = model.get("units") ?? {};
        const bad = badUnits(units);
        if (bad) {
          failed(new Error(`units was not applied: ${bad}`));
          return;
        }
        renderer.setUnits(units);
        changed();
      },
    ],
    ["change:height", () => setHeight(model, renderer, failed)],
  );
  for (const [event, listener] of listeners) model.on(event, listener);
  setHeight(model, renderer, failed);
  return () => {
    for (const [event, listener] of listeners) model.off(event, listener);
  };
}

/**
 * The height goes on the renderer's element: ipywidgets' layout view may reset the style of the
 * element anywidget gives us. A height Python's checks did not see (below the contract's minimum,
 * not a whole number) is refused: the view keeps its height and says so.
 * @template {TableLike} T
 * @param {CCTModel} model @param {import("./renderer-api.js").Renderer<T>} renderer
 */
function setHeight(model, renderer, failed = (/** @type {unknown} */ _) => {}) {
  const height = model.get("height");
  if (!Number.isInteger(height) || height < MIN_HEIGHT) {
    failed(
      new Error(`height was not applied: ${JSON.stringify(height)} is not a whole number of pixels ≥ ${MIN_HEIGHT}`),
    );
    return;
  }
  renderer.element.style.height = `${height}px`;
}

/**
 * Why `units` is not a map of metric names to unit texts (Python checks it first; only a value
 * set past its checks gets here), or "" when it is one.
 * @param {unknown} units
 * @returns {string}
 */
function badUnits(units) {
  if (typeof units !== "object" || units === null || Array.isArray(units)) {
    return `${JSON.stringify(units)} is not a map of metric names to unit texts`;
  }
  const wrong = Object.entries(units).find(([, text]) => typeof text !== "string");
  return wrong ? `the unit of ${JSON.stringify(wrong[0])} is ${JSON.stringify(wrong[1])}, not a text` : "";
}
