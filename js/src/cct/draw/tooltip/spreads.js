// Spreads of a node's rows (ranks…), asked of Python when a node is hovered or selected, kept per
// node and metric for as long as the table (a new table forgets them); appended to the tooltip
// once the answer comes.
import { spreadContent } from "./tooltip-content.js";

/** @typedef {import("./tooltip-content.js").Spread} Spread */

/**
 * Spreads asked of Python for hovered nodes, kept per node and metric for as long as the table.
 * @param {((node: import("../../data/ids.js").NodeId, metric: string) => Promise<Spread>) | null} ask
 */
export function createSpreads(ask) {
  /** @type {Map<string, Promise<Spread>>} */
  let known = new Map();
  const spreads = {
    /**
     * Node `id`'s spread of `metric`, asked once; null without anyone to ask.
     * @param {import("../../data/ids.js").NodeId} id @param {string} metric
     */
    of(id, metric) {
      if (!ask) return null;
      const key = `${id}\u0000${metric}`;
      let spread = known.get(key);
      if (!spread) {
        spread = ask(id, metric);
        known.set(key, spread);
        spread.catch(() => known.delete(key)); // asked again next time
      }
      return spread;
    },
    /** Forgets what was asked (new data). */
    clear() {
      known = new Map();
    },
    /**
     * Appends node `id`'s spread of `metric` to the tooltip `content` once Python answers, if
     * `current()` still says so.
     * @param {HTMLElement} content @param {import("../../data/ids.js").NodeId} id @param {string} metric @param {() => boolean} current
     * @param {string | null} [unit] the rows' unit (w.units)
     */
    attach(content, id, metric, current, unit = null) {
      spreads
        .of(id, metric)
        ?.then((s) => {
          if (current() && content.isConnected) content.append(spreadContent(content.ownerDocument, s, metric, unit));
        })
        .catch(() => {});
    },
  };
  return spreads;
}
