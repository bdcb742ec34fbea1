// Traits ⇄ renderer, through the contract: each view-state trait is one key of the renderer's
// view state (contract.json says which), node ids are full-tree ids on both sides.
//
// Python → renderer: one `change:<trait>` listener per view trait (anywidget has no catch-all
// change event), plus the selection, the units and the height. Renderer → Python: what the user
// changed is set on the model at once and sent with one `save_changes` after the frame that shows
// it (`createSaves`, saves.js); until it is sent the view holds it, so nothing coming from the kernel
// meanwhile (ipywidgets' echo of an older send, Python's own change) overwrites it. No echo
// either way: the renderer does not report what it is told (`setState`, `setSelection`), and a
// trait change that the renderer already shows (our own `model.set` coming back) is not passed on.
import { TRAITS, VIEW_DEFAULTS, VIEW_SPECS } from "../contract.js";
import { sameValue, setLocally, shown } from "./saves.js";

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
