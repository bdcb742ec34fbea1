// A long path (the tree's focus path, the trend pane's path to its node) shown in one line: its
// root, then a place for the steps left out, then the nearest steps. Pure; each caller draws the
// place its own way (the tree's header: a menu; the trend pane: a button that shows them).

/**
 * `path` with its middle left out when it is longer than its root and `nearest` steps plus two
 * (one step left out would take the room of its own crumb).
 * @template T
 * @param {T[]} path from the root
 * @param {number} nearest steps kept at the end
 * @returns {{ shown: (T | null)[], left: T[] }} `shown`: the steps to draw, null where the `left`
 *   ones go (no null, and `left` empty, when nothing is left out)
 */
export function elidePath(path, nearest) {
  if (path.length <= nearest + 2) return { shown: path, left: [] };
  return { shown: [path[0], null, ...path.slice(-nearest)], left: path.slice(1, -nearest) };
}
