// Builds the d3 hierarchy of a table (several roots under one hidden root) and lays it out as a
// left-to-right tidy tree.
import { hierarchy, tree } from "d3-hierarchy";

export const HIDDEN_ROOT = -1;

/**
 * Children lists from the parent column, in table order (pre-order, so Hatchet's child order).
 * @param {Int32Array} parent
 * @returns {{ roots: number[], children: number[][] }}
 */
export function childLists(parent) {
  const children = new Array(parent.length);
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
 * @param {import("./decode.js").Table} table
 * @returns {import("d3-hierarchy").HierarchyNode<number>}
 */
export function buildHierarchy(table) {
  const { roots, children } = childLists(table.parent);
  return hierarchy(HIDDEN_ROOT, (id) => (id === HIDDEN_ROOT ? roots : children[id]));
}

/**
 * Tidy-tree layout, left to right: `x` is horizontal (depth), `y` vertical, in pixels.
 * The hidden root is not drawn; real roots sit at x = 0.
 * @param {import("d3-hierarchy").HierarchyNode<number>} root
 * @param {{ rowHeight: number, levelWidth: number }} spacing
 * @returns {{ x: Float64Array, y: Float64Array, nodes: import("d3-hierarchy").HierarchyPointNode<number>[] }}
 */
export function layoutTree(root, { rowHeight, levelWidth }, size) {
  const laid = tree().nodeSize([rowHeight, levelWidth])(root);
  const x = new Float64Array(size);
  const y = new Float64Array(size);
  const nodes = [];
  laid.each((node) => {
    if (node.data === HIDDEN_ROOT) return;
    x[node.data] = (node.depth - 1) * levelWidth;
    y[node.data] = node.x;
    nodes.push(node);
  });
  return { x, y, nodes };
}
