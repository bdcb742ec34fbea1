import { hierarchy, tree } from "d3-hierarchy";
import { describe, expect, test } from "vitest";
import { runAll } from "../../../src/cct/base/steps.js";
import { layoutSteps, layoutTree } from "../../../src/cct/picture/layout.js";
import { forestOf, forestSteps, tidySteps } from "../../../src/cct/picture/tidy.js";

/** A seeded random number in [0, 1). @param {number} seed */
function random(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/**
 * Items in pre-order from a parent list where each parent comes before its children (keys are
 * shuffled so that key and index differ). @param {number[]} parents -1: a top-level item
 */
function itemsOf(parents, seed = 7) {
  const rnd = random(seed);
  const n = parents.length;
  const keyOf = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [keyOf[i], keyOf[j]] = [keyOf[j], keyOf[i]];
  }
  /** @type {number[][]} */
  const children = Array.from({ length: n }, () => []);
  const tops = [];
  for (const [i, p] of parents.entries()) (p < 0 ? tops : children[p]).push(i);
  const items = [];
  const stack = [...tops].reverse();
  while (stack.length) {
    const i = /** @type {number} */ (stack.pop());
    items.push({ key: keyOf[i], parentKey: parents[i] < 0 ? -1 : keyOf[parents[i]] });
    for (let c = children[i].length - 1; c >= 0; c--) stack.push(children[i][c]);
  }
  return items;
}

/** A random forest of `n` nodes: each node's parent among the earlier ones (or a root). */
function randomParents(n, seed, roots = 0.01, bushy = 0.5) {
  const rnd = random(seed);
  return Array.from({ length: n }, (_, i) => {
    if (i === 0 || rnd() < roots) return -1;
    // near the end (deep, thin) or anywhere (bushy)
    return rnd() < bushy ? Math.floor(rnd() * i) : Math.max(0, i - 1 - Math.floor(rnd() * 4));
  });
}

/** d3-hierarchy's tidy positions of the items, by key (the hidden root left out). */
function d3Positions(items, dx) {
  const children = new Map([[-1, []]]);
  for (const it of items) {
    children.set(it.key, []);
    children.get(it.parentKey).push(it.key);
  }
  const root = tree().nodeSize([dx, 1])(
    hierarchy(-1, (k) => {
      const c = children.get(k);
      return c.length ? c : undefined;
    }),
  );
  const at = new Map();
  root.each((node) => {
    if (node.data !== -1) at.set(node.data, node.x);
  });
  return at;
}

/** The port's positions of the items, by key. */
function tidyPositions(items, dx, slice) {
  const forest = forestOf(items);
  const x = runAll(tidySteps(forest, dx, slice));
  return new Map(items.map((it, i) => [it.key, x[i + 1]]));
}

describe("the tidy layout (a port of d3-hierarchy's tree)", () => {
  test.each([
    ["a random bushy forest", randomParents(3000, 1)],
    ["a random deep forest", randomParents(3000, 2, 0.002, 0.05)],
    ["many roots", randomParents(500, 3, 0.3)],
    ["another random tree", randomParents(2000, 4, 0, 0.3)],
  ])("gives d3's positions to the last bit: %s", (_, parents) => {
    const items = itemsOf(parents);
    expect(tidyPositions(items, 28)).toEqual(d3Positions(items, 28));
    expect(tidyPositions(items, 1, 7)).toEqual(d3Positions(items, 1)); // small slices: the same
  });

  test("a single node, a wide fan, a comb and a 10,000-deep chain (no recursion)", () => {
    const single = [{ key: 0, parentKey: -1 }];
    expect(tidyPositions(single, 28)).toEqual(new Map([[0, 0]]));
    expect(tidyPositions([], 28)).toEqual(new Map());
    const fan = itemsOf(Array.from({ length: 5000 }, (_, i) => (i === 0 ? -1 : 0)));
    expect(tidyPositions(fan, 28)).toEqual(d3Positions(fan, 28));
    // a comb: a chain whose every node has a leaf beside the next one
    const comb = itemsOf(Array.from({ length: 4001 }, (_, i) => (i === 0 ? -1 : i % 2 ? i - 1 : i - 2)));
    expect(tidyPositions(comb, 28)).toEqual(d3Positions(comb, 28));
    const chain = itemsOf(Array.from({ length: 10_000 }, (_, i) => i - 1));
    const x = tidyPositions(chain, 28);
    expect(x).toEqual(d3Positions(chain, 28));
    expect([...x.values()].every((v) => v === 0)).toBe(true);
  });

  test("yields every `slice` nodes of each walk", () => {
    const forest = forestOf(itemsOf(randomParents(1000, 5)));
    const steps = tidySteps(forest, 1, 100);
    let yields = 0;
    while (!steps.next().done) yields++;
    // 1001 indices: 10 slices in each walk (the second one starts at index 1)
    expect(yields).toBe(20);
  });

  test("the forest is made in slices too, the same as at once, with the keys' count", () => {
    const items = itemsOf(randomParents(1000, 5));
    const steps = forestSteps(items, 100);
    let yields = 0;
    let step = steps.next();
    for (; !step.done; step = steps.next()) yields++;
    // 1000 items: the largest key found (9 yields), then the 1001 indices (10)
    expect(yields).toBe(19);
    expect(step.value).toEqual(forestOf(items));
    expect(step.value.keyCount).toBe(Math.max(...items.map((it) => it.key)) + 1);
    expect(forestOf([]).keyCount).toBe(1);
  });

  test("an item listed before its parent is refused", () => {
    expect(() => forestOf([{ key: 1, parentKey: 0 }])).toThrow(/item 1 comes before its parent 0/);
  });
});

describe("a layout done in slices", () => {
  test("equals one done at once, bands and all", () => {
    const items = itemsOf(randomParents(5000, 6, 0.02));
    const size = items.length;
    const once = layoutTree(forestOf(items), { rowHeight: 28 }, size);
    const steps = layoutSteps(forestOf(items), { rowHeight: 28 }, size);
    let slices = 0;
    let step = steps.next();
    for (; !step.done; step = steps.next()) slices++;
    expect(slices).toBeGreaterThan(2);
    expect(step.value).toEqual(once);
    expect(once.bands.length).toBeGreaterThan(1);
    // the tidy rows are d3's (a single band: stacking moves nothing)
    const one = itemsOf(randomParents(3000, 8, 0));
    const laid = layoutTree(forestOf(one), { rowHeight: 28 }, one.length);
    const d3 = d3Positions(one, 28);
    expect(one.every((it) => laid.y[it.key] === d3.get(it.key))).toBe(true);
  });
});
