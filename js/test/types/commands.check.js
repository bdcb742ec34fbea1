// Type-level test of the command union (src/cct/state/commands.js), run by `npm run typecheck`:
// each `@ts-expect-error` line is an error only while `Command` is a discriminated union of typed
// commands; were it loosened (a string name, an `any` value), tsc would fail on the unused directive.

/** @typedef {import("../../src/cct/state/commands.js").Command} Command */
/** @typedef {import("../../src/cct/state/commands.js").Dispatch} Dispatch */
/** @typedef {import("../../src/cct/data/ids.js").NodeId} NodeId */
/** @typedef {import("../../src/cct/data/ids.js").Row} Row */

/** @param {Dispatch} dispatch @param {NodeId} id @param {Row} row */
export function checks(dispatch, id, row) {
  dispatch({ type: "collapse", id });
  dispatch({ type: "focus", id: null });
  dispatch({ type: "match", step: -1 });
  dispatch({ type: "set", state: { colorScale: "log", focus: id } });
  // @ts-expect-error a misspelt command
  dispatch({ type: "colapse", id });
  // @ts-expect-error a collapse names a node id, not a row
  dispatch({ type: "collapse", id: row });
  // @ts-expect-error nor a plain number
  dispatch({ type: "collapse", id: 3 });
  // @ts-expect-error a collapse without its node
  dispatch({ type: "collapse" });
  // @ts-expect-error a step is 1 or -1
  dispatch({ type: "match", step: 2 });
  // @ts-expect-error a download is SVG or PNG
  dispatch({ type: "download", format: "jpg" });
  // @ts-expect-error a search pattern is text
  dispatch({ type: "search", pattern: 1 });
  // @ts-expect-error a view setting of the wrong type
  dispatch({ type: "set", state: { colorScale: "cubic" } });
  // @ts-expect-error the selection is node ids
  dispatch({ type: "select", ids: [row] });
}
