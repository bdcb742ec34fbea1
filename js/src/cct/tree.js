// The d3 hierarchy of the drawn items (several roots under one hidden root), laid out as a
// left-to-right tidy tree; and the children lists of a table.
import { hierarchy, tree } from "d3-hierarchy";

export const HIDDEN_ROOT = -1;

/**
 * Children lists from the parent column, in table order (pre-order, so Hatchet's child order).
 * @param {Int32Array} parent
 * @returns {{ roots: number[], children: number[][] }}
 */
export function childLists(parent) {
  /** @type {number[][]} sparse: a leaf has no entry */
  const children = new Array(parent.length);
  /** @type {number[]} */
  const roots = [];
  for (let i = 0; i < parent.length; i++) {
    const p = parent[i];
    if (p < 0) roots.push(i);
    else if (p >= parent.length) throw new RangeError(`node ${i} has parent ${p} outside the table`);
    else if (children[p]) children[p].push(i);
    else children[p] = [i];
  }
  return { roots, children };
}

/**
 * The hierarchy of the items of a view tree (see view-tree.js), by their keys.
 * @param {{ key: number, parentKey: number }[]} items in pre-order
 */
export function itemHierarchy(items) {
  /** @type {Map<number, number[]>} item key → its children's keys (every parent is listed before them) */
  const children = new Map([[HIDDEN_ROOT, []]]);
  for (const it of items) {
    children.set(it.key, []);
    /** @type {number[]} */ (children.get(it.parentKey)).push(it.key);
  }
  return hierarchy(HIDDEN_ROOT, (key) => {
    const c = /** @type {number[]} */ (children.get(key));
    return c.length ? c : undefined;
  });
}

/**
 * Tidy-tree layout, left to right. The tidy algorithm fixes only the vertical positions `y`
 * (rows `rowHeight` apart); the horizontal position is depth × level width, set by `placeLevels`
 * so that the spacing can follow the view's size without laying the tree out again.
 * The hidden root is not drawn; real roots sit at x = 0.
 * @param {import("d3-hierarchy").HierarchyNode<number>} root
 * @param {{ rowHeight: number }} spacing
 * @param {number} size number of nodes in the table
 */
export function layoutTree(root, { rowHeight }, size) {
  const laid = tree().nodeSize([rowHeight, 1])(root);
  const x = new Float64Array(size);
  const y = new Float64Array(size);
  const depth = new Int32Array(size);
  /** @type {import("d3-hierarchy").HierarchyPointNode<number>[]} */
  const nodes = [];
  let y0 = Infinity;
  let y1 = -Infinity;
  let maxDepth = 0;
  /** @type {number[]} */
  const leaves = [];
  laid.each((node) => {
    if (node.data === HIDDEN_ROOT) return;
    y[node.data] = node.x;
    depth[node.data] = node.depth - 1;
    if (node.x < y0) y0 = node.x;
    if (node.x > y1) y1 = node.x;
    if (node.depth - 1 > maxDepth) maxDepth = node.depth - 1;
    if (!node.children) leaves.push(node.data);
    nodes.push(node);
  });
  return { x, y, depth, nodes, leaves, height: nodes.length ? y1 - y0 : 0, maxDepth, levelWidth: 0 };
}

/**
 * Sets the horizontal positions for a level width (layout units).
 * @param {ReturnType<typeof layoutTree>} layout
 * @param {number} levelWidth
 */
export function placeLevels(layout, levelWidth) {
  for (const node of layout.nodes) layout.x[node.data] = layout.depth[node.data] * levelWidth;
  layout.levelWidth = levelWidth;
}
