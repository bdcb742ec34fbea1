// The table pane's rows: a tree of rows loaded from Python (calling contexts, functions, callers,
// a function's callers and callees), which of them show (open rows, the search filter), in which
// order (the sorted column), and the slice of them a scrolled pane draws. Pure functions.

/** @typedef {"contexts" | "functions" | "callers" | "callees"} RowMode */
/**
 * One row of the pane.
 * @typedef {object} Row
 * @property {string} key unique in the pane
 * @property {RowMode} mode which table it belongs to (what its children are)
 * @property {string} label the function's name
 * @property {string | null} where its module (or file), if the profile says
 * @property {(number | null)[]} values one per value column; null: missing
 * @property {number} count the calling contexts it stands for
 * @property {import("../data/ids.js").NodeId} node its full-tree node id (contexts), -1 for a merged row
 * @property {string[]} path names from the first level to it (merged rows)
 * @property {number} part how many of the path's last names are loops or lines of the function
 *   `path[0]` (0: a function, a caller or a callee)
 * @property {boolean} more it has child rows
 * @property {number} depth
 * @property {Row[] | null} children null: not loaded yet
 * @property {boolean} open
 * @property {string | null} section a heading shown instead of the label (the sandwich's halves)
 */
/**
 * Rows as Python sends them (the `rows` of a reply).
 * @typedef {{ columns: string[], label: string[], values: (number | null)[][], count: number[],
 *   node: number[], more: boolean[], where?: (string | null)[], part?: boolean[],
 *   totals?: (number | null)[], kinds?: string[] }} RowsReply
 *   `part`: the row is a loop or a line of the row it is below; `totals`: per column the whole
 *   profile's total its shares divide by (null: no share); `kinds`: per column its metric's kind
 */
/**
 * The columns of a reply: metric names, each one's total (null: no share) and kind.
 * @typedef {{ names: string[], totals: (number | null)[], kinds: string[] }} Columns
 */
/** @typedef {{ column: number, descending: boolean }} Sort column -1: the name, `values.length`: the count */

/**
 * Checks Python's rows and makes them rows below `parent` (null: top rows of `mode`).
 * @param {unknown} reply
 * @param {Row | null} parent
 * @param {RowMode} mode
 * @returns {{ columns: Columns, rows: Row[] }}
 */
export function rowsFrom(reply, parent, mode) {
  const r = /** @type {Partial<RowsReply>} */ (typeof reply === "object" && reply !== null ? reply : {});
  const { columns, label, values, count, node, more, where, part, totals, kinds } = r;
  const n = Array.isArray(label) ? label.length : -1;
  const ok =
    Array.isArray(columns) &&
    n >= 0 &&
    Array.isArray(values) &&
    values.length === columns.length &&
    values.every((v) => Array.isArray(v) && v.length === n) &&
    [count, node, more].every((a) => Array.isArray(a) && a.length === n);
  if (!ok || !label) throw new Error("cctviz: Python's table rows are malformed");
  const depth = parent ? parent.depth + 1 : 0;
  const rows = label.map((name, i) => {
    const text = String(name);
    const id = /** @type {import("../data/ids.js").NodeId} */ (Number(node?.[i] ?? -1)); // Python's, checked above
    const path = mode === "contexts" ? [] : [...(parent?.path ?? []), text];
    const lexical = mode !== "contexts" && part?.[i] === true ? (parent?.part ?? 0) + 1 : 0;
    return {
      key:
        mode === "contexts" ? `contexts:${id}` : `${mode}:${JSON.stringify(path)}${lexical ? `:part${lexical}` : ""}`,
      mode,
      label: text,
      where: typeof where?.[i] === "string" ? where[i] : null,
      values: values.map((column) => (typeof column[i] === "number" ? /** @type {number} */ (column[i]) : null)),
      count: Number(count?.[i] ?? 0),
      node: id,
      path,
      part: lexical,
      more: more?.[i] === true,
      depth,
      children: null,
      open: false,
      section: null,
    };
  });
  const names = columns.map(String);
  const total = (/** @type {number} */ i) => {
    const t = Array.isArray(totals) ? totals[i] : null;
    return typeof t === "number" && t > 0 ? t : null;
  };
  const kind = (/** @type {number} */ i) => (Array.isArray(kinds) ? String(kinds[i] ?? "other") : "other");
  return { columns: { names, totals: names.map((_, i) => total(i)), kinds: names.map((_, i) => kind(i)) }, rows };
}

/**
 * The sort a table starts with: largest first by its first column of `kind` (a tree of contexts:
 * inclusive, a parent's value holds its children's; a flat list: exclusive), else by its first.
 * @param {Columns} columns @param {"inclusive" | "exclusive"} kind
 * @returns {Sort}
 */
export function firstSort(columns, kind) {
  return { column: Math.max(0, columns.kinds.indexOf(kind)), descending: true };
}

/**
 * Orders rows by a column (missing values last, then by name).
 * @param {Sort} sort
 * @returns {(a: Row, b: Row) => number}
 */
export function compareRows({ column, descending }) {
  const sign = descending ? -1 : 1;
  /** @param {Row} row */
  const value = (row) => (column < 0 ? null : column >= row.values.length ? row.count : row.values[column]);
  return (a, b) => {
    if (column < 0) return sign * a.label.localeCompare(b.label);
    const x = value(a);
    const y = value(b);
    if (x === null || y === null) return x === y ? a.label.localeCompare(b.label) : x === null ? 1 : -1;
    return x === y ? a.label.localeCompare(b.label) : sign * (x - y);
  };
}

/**
 * The rows that show, top to bottom: open rows' children sorted below them; top rows that fail
 * `keep` (the search, in the flat tables) are left out.
 * @param {Row[]} roots
 * @param {Sort} sort
 * @param {((row: Row) => boolean) | null} keep
 * @returns {Row[]}
 */
export function visibleRows(roots, sort, keep = null) {
  const order = compareRows(sort);
  /** @type {Row[]} */
  const out = [];
  /** @param {Row[]} rows pre-order with an explicit stack: a call path can be thousands deep */
  const walk = (rows) => {
    const stack = [...rows].sort(order).reverse();
    while (stack.length) {
      const row = /** @type {Row} */ (stack.pop());
      out.push(row);
      if (!row.open || !row.children) continue;
      // pushed one by one: a spread of a row with 10^5 children would overflow the call stack
      const kids = [...row.children].sort(order);
      for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]);
    }
  };
  // the sandwich's two halves keep their order (callers above, callees below)
  const top = keep ? roots.filter(keep) : roots;
  if (top.some((r) => r.section !== null)) {
    for (const row of top) {
      out.push(row);
      if (row.open && row.children) walk(row.children);
    }
  } else {
    walk(top);
  }
  return out;
}

/**
 * The rows a pane `height` pixels tall, scrolled to `scrollTop`, draws (with `overscan` rows
 * more each side): [start, end).
 * @param {number} scrollTop @param {number} height @param {number} rowHeight
 * @param {number} count @param {number} [overscan]
 * @returns {[number, number]}
 */
export function windowOf(scrollTop, height, rowHeight, count, overscan = 6) {
  const first = Math.floor(Math.max(0, scrollTop) / rowHeight);
  const start = Math.max(0, first - overscan);
  const end = Math.min(count, first + Math.ceil(Math.max(0, height) / rowHeight) + overscan);
  return [start, Math.max(start, end)];
}

/**
 * The row with `key` among the loaded rows, or null.
 * @param {Row[]} roots @param {string} key
 * @returns {Row | null}
 */
export function findRow(roots, key) {
  for (const row of roots) {
    if (row.key === key) return row;
    const inner = row.children ? findRow(row.children, key) : null;
    if (inner) return inner;
  }
  return null;
}

/** A loop's or a line's request names how many of its path's names are loops or lines. @param {Row} row */
export const partOf = (row) => (row.part ? { part: row.part } : {});
