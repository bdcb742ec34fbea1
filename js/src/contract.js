// The contract shared with Python (cctviz/contract.json, bundled here): every synced trait with
// its front-end key, kind, allowed values, default, whether it is view state, whether undo steps
// through it and which redraw a change triggers; the message kinds and the format versions.
// The view state's defaults, its normalisation and the trait ⇄ key maps are derived from it.
import contractJson from "../../cctviz/contract.json";
import unitsJson from "../../cctviz/units.json";

/**
 * @typedef {"metric" | "metrics" | "enum" | "node_ids" | "node_id" | "root_ids" | "range" | "domain" | "string"
 *   | "bool" | "int" | "units" | "derived" | "payload" | "share" | "strip" | "trend" | "counted" | "rank"
 *   | "paths"} Kind
 * @typedef {"structure" | "style" | "search" | "backend" | "marks" | "selection" | "none"} Redraw
 * @typedef {object} TraitSpec
 * @property {string} trait the Python trait
 * @property {string} key the front end's name
 * @property {Kind} kind
 * @property {unknown} default
 * @property {boolean} view part of the renderer's view state
 * @property {boolean} undoable undo and redo step through it
 * @property {boolean} saved saved view state (w.view_state) carries it
 * @property {Redraw} redraw
 * @property {string} help
 * @property {string[]} [values] allowed values of an enum
 * @property {boolean} [ordered] node ids kept in their order (a selection), not as a set
 * @property {number} [min]
 */

/**
 * A node's id in the full tree: what Python, the traits and the view state name nodes by (under
 * level of detail the table has only some of them). Branded, so that the type check tells it from
 * a row of the decoded table and from a drawn item's key (cct/data/ids.js); only the decoder
 * converts between them (`table.rowOf`, `table.idOf`).
 * @typedef {number & { readonly __brand: "NodeId" }} NodeId
 */

/**
 * The view state: every key of a trait with `view: true`, in full-tree node ids.
 * @typedef {object} ViewState
 * @property {string} colorBy
 * @property {string} sizeBy
 * @property {"linear" | "log"} colorScale
 * @property {string} palette
 * @property {"auto" | "shared" | "per-root"} legend
 * @property {"tree" | "view" | [number, number]} colorDomain
 * @property {"auto" | "svg" | "canvas"} backend
 * @property {NodeId[]} collapsed
 * @property {[number, number] | null} prune
 * @property {NodeId | null} focus
 * @property {NodeId[] | null} roots
 * @property {string} search
 * @property {boolean} searchRegex
 * @property {boolean} searchCase
 * @property {NodeId[]} highlighted
 * @property {"off" | "total" | "focus"} legendShare
 * @property {number} judgeBelow share of the total under which nodes are too small to judge
 * @property {"off" | "contexts" | "functions" | "callers" | "sandwich" | "changes" | "source" | "ranks"} tableMode
 * @property {string} sandwich
 * @property {boolean} foldToFit
 * @property {boolean} callerEdges
 */
/** @typedef {keyof ViewState} ViewKey */

export const contract = /** @type {{ payload_version: number, state_version: number,
 *   traits: TraitSpec[], messages: Record<string, { from: string, fields: Record<string, string>, help: string }> }} */ (
  /** @type {unknown} */ (contractJson)
);

/** @type {TraitSpec[]} */
export const TRAITS = contract.traits;
/** @type {TraitSpec[]} the view state's traits, in contract order */
export const VIEW_SPECS = TRAITS.filter((s) => s.view);
/** @type {Map<string, TraitSpec>} view state key → its spec */
const SPEC_OF_KEY = new Map(VIEW_SPECS.map((s) => [s.key, s]));

/** @type {Readonly<ViewState>} */
export const VIEW_DEFAULTS = Object.freeze(
  /** @type {ViewState} */ (Object.fromEntries(VIEW_SPECS.map((s) => [s.key, structuredClone(s.default)]))),
);
/** @type {ViewKey[]} what undo and redo step through */
export const UNDOABLE = /** @type {ViewKey[]} */ (VIEW_SPECS.filter((s) => s.undoable).map((s) => s.key));
/** @type {Record<string, string>} view state key → trait name */
export const TRAIT_OF = Object.fromEntries(VIEW_SPECS.map((s) => [s.key, s.trait]));
/** @type {Record<string, string>} trait name → view state key */
export const KEY_OF = Object.fromEntries(VIEW_SPECS.map((s) => [s.trait, s.key]));

/**
 * View state keys whose change triggers `redraw`.
 * @param {Redraw} redraw
 * @returns {ViewKey[]}
 */
export function keysRedrawing(redraw) {
  return /** @type {ViewKey[]} */ (VIEW_SPECS.filter((s) => s.redraw === redraw).map((s) => s.key));
}

/** @param {string} trait @returns {string[]} allowed values of an enum trait */
export function valuesOf(trait) {
  const spec = TRAITS.find((s) => s.trait === trait);
  if (!spec?.values) throw new RangeError(`${trait} is not an enum trait of the contract`);
  return spec.values;
}

const isId = (/** @type {unknown} */ v) => typeof v === "number" && Number.isInteger(v) && v >= 0;

/**
 * Checks and normalises a partial view state (node lists as sorted sets, numbers as numbers);
 * errors name the bad value and say what is accepted. Metric names are checked against the
 * table by the renderer (the contract does not know the metrics).
 * @param {Record<string, unknown>} partial
 * @returns {Partial<ViewState>}
 */
export function normalizeState(partial) {
  /** @type {Record<string, unknown>} */
  const out = {};
  for (const [key, value] of Object.entries(partial)) {
    const spec = SPEC_OF_KEY.get(key);
    if (!spec)
      throw new RangeError(
        `unknown view state ${JSON.stringify(key)}; accepted: ${[...SPEC_OF_KEY.keys()].join(", ")}`,
      );
    out[key] = normalizeValue(spec, value);
  }
  return /** @type {Partial<ViewState>} */ (out);
}

/** @param {TraitSpec} spec @param {unknown} value */
function normalizeValue(spec, value) {
  const bad = (/** @type {string} */ accepted) =>
    new RangeError(`${spec.trait} must be ${accepted}; got ${JSON.stringify(value)}`);
  switch (spec.kind) {
    case "metric":
    case "string":
      if (typeof value !== "string") throw bad("a string");
      return value;
    case "bool":
      if (typeof value !== "boolean") throw bad("true or false");
      return value;
    case "enum":
      if (typeof value !== "string" || !spec.values?.includes(value)) {
        throw new RangeError(
          `unknown ${spec.trait.replace("_", " ")} ${JSON.stringify(value)}; accepted: ${spec.values?.join(", ")}`,
        );
      }
      return value;
    case "node_ids": {
      if (!Array.isArray(value) || !value.every(isId)) throw bad("a list of node ids");
      const unique = [...new Set(/** @type {number[]} */ (value))];
      return spec.ordered ? unique : unique.sort((a, b) => a - b);
    }
    case "root_ids":
      if (value === null) return null;
      if (!Array.isArray(value) || !value.every(isId)) throw bad("a list of root ids, or null");
      return [...new Set(/** @type {number[]} */ (value))];
    case "node_id":
      if (value === null) return null;
      if (!isId(value)) throw bad("a node id or null");
      return value;
    case "range": {
      if (value === null) return null;
      const v = /** @type {unknown[]} */ (value);
      const [lo, hi] = Array.isArray(v) && v.length === 2 ? v.map(Number) : [Number.NaN, Number.NaN];
      if (!(lo <= hi))
        throw new RangeError(`prune range must be [low, high] with low ≤ high; got ${JSON.stringify(value)}`);
      return [lo, hi];
    }
    case "share":
      if (typeof value !== "number" || !(value >= 0 && value < 1)) throw bad("a number from 0 up to 1 (a share)");
      return value;
    case "domain": {
      if (value === "tree" || value === "view") return value;
      const v = /** @type {unknown[]} */ (value);
      const [lo, hi] = Array.isArray(v) && v.length === 2 ? v.map(Number) : [Number.NaN, Number.NaN];
      if (!(lo < hi && Number.isFinite(lo) && Number.isFinite(hi))) {
        throw new RangeError(
          `color_domain must be "tree", "view" or [low, high] with low < high; got ${JSON.stringify(value)}`,
        );
      }
      return [lo, hi];
    }
    default:
      throw new RangeError(`${spec.trait} is not view state`);
  }
}

/** The message kinds (see contract.json "messages"). */
export const MESSAGES = contract.messages;

/**
 * The grammar of a metric's unit text (cctviz/units.json, read by cctviz/core/units.py too):
 * bases and their aliases, SI and binary prefixes, what a label may hold.
 * @type {{ max_length: number, label_characters: string, prefixes: Record<string, number>,
 *   prefix_aliases: Record<string, string>, binary: Record<string, number>,
 *   bases: Record<string, { aliases: string[], smallest: string, largest: string, binary: boolean }>,
 *   column_digits: number }}
 */
export const UNIT_GRAMMAR = /** @type {any} */ (unitsJson);
