// The search bound to the model: under level of detail, Python's count of the matches over the
// full tree (`_search_count`, of the search it names) reaches the renderer, which counts from it
// the matches it has not loaded while that search is its own; and a step Python took (`w.search_step`, a `show_match`
// message) moves the view to its match, as ▶ does.
import { MESSAGES } from "../contract.js";

const SHOW_MATCH = "show_match";
if (!(SHOW_MATCH in MESSAGES)) throw new Error(`the contract has no ${SHOW_MATCH} message`);

/**
 * @param {{ model: import("./model.js").CCTModel,
 *   renderer: { setSearchCount?: (counted: import("../cct/state/search-commands.js").Counted | null) => void, command?: (name: string, value?: unknown) => void } }} options
 * @returns {() => void} stops listening
 */
export function bindSearch({ model, renderer }) {
  /** Python's count, of the search it names: the renderer uses it while that is its search. */
  const count = () => {
    const c = model.get("_search_count") ?? {};
    const counted = typeof c.search === "string" && typeof c.count === "number";
    renderer.setSearchCount?.(
      counted ? { search: c.search ?? "", regex: !!c.regex, caseSensitive: !!c.case, count: c.count ?? 0 } : null,
    );
  };
  /** @param {unknown} message */
  const onMessage = (message) => {
    const m = /** @type {{ type?: unknown, node?: unknown }} */ (message);
    if (m?.type !== SHOW_MATCH || !Number.isInteger(m.node)) return;
    try {
      renderer.command?.("showMatch", m.node);
    } catch {
      // a node this table does not have (a stale message): nothing to show
    }
  };
  model.on("change:_search_count", count);
  model.on("msg:custom", onMessage);
  count();
  return () => {
    model.off("change:_search_count", count);
    model.off("msg:custom", onMessage);
  };
}
