// Undo/redo of view states: a list of snapshots and a position in it. A snapshot equal to the
// current one is not recorded, so echoes of a change (the model sending it back) cost nothing.

/** @param {number} [limit] the most steps kept */
export function createHistory(limit = 200) {
  /** @type {string[]} */
  let entries = [];
  let at = -1;
  return {
    /**
     * Records `state` as the newest step (dropping what was undone).
     * @param {unknown} state plain JSON data
     * @returns {boolean} whether it was recorded (not equal to the current step)
     */
    record(state) {
      const json = JSON.stringify(state);
      if (entries[at] === json) return false;
      entries = entries.slice(0, at + 1);
      entries.push(json);
      if (entries.length > limit) entries.shift();
      at = entries.length - 1;
      return true;
    },
    canUndo: () => at > 0,
    canRedo: () => at < entries.length - 1,
    /** The state before the current one, or null. */
    undo() {
      if (at <= 0) return null;
      at--;
      return JSON.parse(entries[at]);
    },
    /** The state after the current one, or null. */
    redo() {
      if (at >= entries.length - 1) return null;
      at++;
      return JSON.parse(entries[at]);
    },
  };
}
