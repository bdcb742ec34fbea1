// Node ids of the full tree (what Python and the traits use) ⇄ rows of the table the browser
// has. With every node sent they are the same; under level of detail the table holds only the
// revealed nodes and fold rows, and `table.nodeId` maps its rows to full-tree ids.

/** View state keys that hold node ids. */
const ID_LISTS = ["collapsed", "highlighted"];

/**
 * @param {{ size: number, nodeId: Int32Array | null }} table
 */
export function idMapping(table) {
  const nodeId = table.nodeId;
  if (!nodeId) {
    return { sparse: false, toRow: (id) => (id >= 0 && id < table.size ? id : -1), toId: (row) => row };
  }
  const rows = new Map();
  for (let r = 0; r < nodeId.length; r++) if (nodeId[r] >= 0) rows.set(nodeId[r], r);
  return { sparse: true, toRow: (id) => rows.get(id) ?? -1, toId: (row) => nodeId[row] };
}

/** Rows of the ids that the table has (the others are not drawn). */
export function rowsOf(mapping, ids) {
  const out = [];
  for (const id of ids ?? []) {
    const r = mapping.toRow(id);
    if (r >= 0) out.push(r);
  }
  return out;
}

/**
 * A view state in full-tree ids → in rows.
 * @param {ReturnType<typeof idMapping>} mapping
 * @param {Record<string, any>} state
 */
export function stateToRows(mapping, state) {
  const out = { ...state };
  for (const key of ID_LISTS) if (key in state) out[key] = rowsOf(mapping, state[key]);
  if ("focus" in state && state.focus !== null) {
    const r = mapping.toRow(state.focus);
    out.focus = r >= 0 ? r : null;
  }
  if ("roots" in state && state.roots !== null) out.roots = rowsOf(mapping, state.roots);
  return out;
}

/**
 * A change the renderer reports (rows) → full-tree ids. Ids the table does not have are kept
 * from `current` (a collapsed node that was not sent stays collapsed).
 * @param {ReturnType<typeof idMapping>} mapping
 * @param {Record<string, any>} change
 * @param {(key: string) => any} current the state now, in full-tree ids
 */
export function changeToIds(mapping, change, current) {
  const out = { ...change };
  for (const key of ID_LISTS) {
    if (!(key in change)) continue;
    const unseen = (current(key) ?? []).filter((id) => mapping.toRow(id) < 0);
    out[key] = [...unseen, ...change[key].map(mapping.toId)];
  }
  if ("focus" in change && change.focus !== null) out.focus = mapping.toId(change.focus);
  if ("roots" in change && change.roots !== null) out.roots = change.roots.map(mapping.toId);
  return out;
}
