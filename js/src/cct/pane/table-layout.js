// How wide the table pane's columns are: a name column that takes what is left, a track per value
// column (wider where it shows shares too) and, in the flat tables, one for the count of calling
// contexts; the pane widens with its columns, so that the name keeps room.

/** Widths in pixels of a value column, of one that shows shares too, of the contexts column,
 * and the least the name column keeps. */
const VALUE_TRACK = 62;
const SHARE_TRACK = 100;
const COUNT_TRACK = 64;
const NAME_ROOM = 140;

/**
 * Sets the pane's grid tracks and its least and most width.
 * @param {HTMLElement} element the pane
 * @param {boolean[]} shared per value column: whether it shows shares too
 * @param {boolean} counted whether the table has a contexts column
 * @param {boolean} widen whether the pane widens for the contexts column (the flat tables; the
 *   calling contexts and the tabs without columns keep one width, so the tree does not move)
 */
export function layoutColumns(element, shared, counted, widen) {
  const values = shared.map((s) => (s ? SHARE_TRACK : VALUE_TRACK));
  const tracks = [...values, ...(counted ? [COUNT_TRACK] : [])];
  element.style.setProperty("--cct-pane-tracks", ["minmax(0, 1fr)", ...tracks.map((t) => `${t}px`)].join(" "));
  const room = NAME_ROOM + [...values, ...(widen ? [COUNT_TRACK] : [])].reduce((a, t) => a + t, 0);
  element.style.minWidth = `${Math.max(300, room)}px`;
  element.style.maxWidth = `${Math.max(560, room)}px`;
}
