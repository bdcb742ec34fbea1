// What the user changed waits for the frame that shows it, then goes to Python; until then the
// view holds it against whatever the kernel sets (ipywidgets' echo of an older send, Python's own
// change). See `createSaves` and docs/architecture.md ("no gesture lost").

/**
 * @typedef {import("./model.js").CCTModel} CCTModel
 * @typedef {import("./model.js").TraitName} TraitName
 * @typedef {import("./model.js").Traits} Traits
 */

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
export function shown(model, trait) {
  const held = settingLocally ? undefined : HELD.get(model)?.get(trait); // the page's newer value
  return held ? /** @type {Traits[K]} */ (held.value) : model.get(trait);
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
export function setLocally(model, trait, value) {
  settingLocally++;
  try {
    setTrait(model, trait, value);
  } finally {
    settingLocally--;
  }
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
