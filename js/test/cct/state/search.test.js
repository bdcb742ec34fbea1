// Search: typing (a partial pattern too) counts and marks matches and opens nothing; a step
// opens one match's ancestors; "show all" opens every match's, on request; hidden matches are
// counted and marked on the glyph that holds them; Python's search behaves as typing.
import { beforeAll, describe, expect, test } from "vitest";
import { decodeTable } from "../../../src/cct/data/decode.js";
import { TYPING_MS } from "../../../src/cct/input/search-box.js";
import { statsOf } from "../../../src/cct/picture/picture.js";
import { commandOf } from "../../../src/cct/state/commands.js";
import { matcher, matchIds, nextMatch, nodesOpened, openAncestors } from "../../../src/cct/state/search.js";
import { lodTree, payload, realProfile } from "../../support/fixtures.js";
import { DRAWN_AT_ONCE, mountRenderer, TIME } from "../../support/mount.js";

beforeAll(() => {
  HTMLCanvasElement.prototype.getContext = () => null;
});

/** main(0) → solve(1) → kernel_a(2); main → io(3) → kernel_io(4); main → kernel_c(5); init(6). */
const twoSubtrees = () =>
  payload({
    parent: [-1, 0, 1, 0, 3, 0, -1],
    names: ["main", "solve", "kernel_a", "io", "kernel_io", "kernel_c", "init"],
    metrics: { time: [1, 2, 30, 3, 10, 5, 1], "time (inc)": [51, 32, 30, 13, 10, 5, 1] },
    kinds: { time: "exclusive", "time (inc)": "inclusive" },
    partners: { time: "time (inc)", "time (inc)": "time" },
  });
const mount = (state = {}, spec = twoSubtrees()) => mountRenderer(spec, { state: { ...TIME, ...state } });
const info = (c) => c.querySelector(".cct-search-info").textContent;
const button = (c, label) =>
  [...c.querySelectorAll(".cct-toolbar button")].find((b) => b.getAttribute("aria-label")?.startsWith(label));
const drawnIds = (c) =>
  [...c.querySelectorAll(".cct-nodes .cct-node[data-id]")].map((e) => Number(e.getAttribute("data-id"))).sort();
const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
/** Types `text` into the search box, one keystroke at a time, and waits for the search. */
async function type(c, text) {
  const input = c.querySelector(".cct-search");
  for (let i = 1; i <= text.length; i++) {
    input.value = text.slice(0, i);
    input.dispatchEvent(new Event("input"));
  }
  await wait(TYPING_MS + 30);
}
const enter = (c, shiftKey = false) =>
  c.querySelector(".cct-search").dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", shiftKey, bubbles: true }));

describe("the search's pure parts", () => {
  const table = decodeTable(twoSubtrees());
  const test_ = /** @type {(n: string) => boolean} */ (matcher("KERNEL", { regex: false, caseSensitive: false }));

  test("matches in tree order; a fold row never matches", () => {
    expect(matchIds(table, test_)).toEqual([2, 4, 5]);
    const lod = decodeTable(lodTree());
    expect(matchIds(lod, (name) => name.includes("more") || name === "kernel")).toEqual([9]);
  });

  test("a step goes to the next match after a node, or the last before it, and wraps", () => {
    expect(nextMatch([2, 4, 5], null, 1)).toBe(2);
    expect(nextMatch([2, 4, 5], null, -1)).toBe(5);
    expect(nextMatch([2, 4, 5], 2, 1)).toBe(4);
    expect(nextMatch([2, 4, 5], 3, 1)).toBe(4);
    expect(nextMatch([2, 4, 5], 5, 1)).toBe(2);
    expect(nextMatch([2, 4, 5], 2, -1)).toBe(5);
    expect(nextMatch([], null, 1)).toBe(null);
  });

  test("only the collapsed ancestors of the nodes asked for open", () => {
    expect(openAncestors(table, [1, 3], [2])).toEqual([3]);
    expect(openAncestors(table, [1, 3], [2, 4])).toEqual([]);
    expect(openAncestors(table, [1, 3], [5])).toBe(null);
    // a collapsed match is drawn (as its glyph): it is not opened itself
    expect(openAncestors(table, [0, 1], [1])).toEqual([1]);
  });

  test("how many nodes opening draws", () => {
    const state = { ...TIME, collapsed: [1, 3], prune: null, focus: null, roots: null };
    expect(nodesOpened(table, statsOf(table), state, [3], null)).toBe(1);
    expect(nodesOpened(table, statsOf(table), state, [], null)).toBe(2);
  });
});

describe("typing", () => {
  test("a pattern, partial or whole, counts and marks every match and opens nothing", async () => {
    const { container, renderer, changes } = mount({ collapsed: [1, 3] });
    const before = drawnIds(container);
    await type(container, "kern");
    expect(changes).toEqual([{ search: "kern" }]); // one search, after the last keystroke
    expect(renderer.state.collapsed).toEqual([1, 3]);
    expect(drawnIds(container)).toEqual(before);
    expect(info(container)).toBe("3 matches, 2 hidden");
    expect(renderer.matches).toEqual([5]);
    // each hidden match is marked on the glyph that holds it, with how many it holds
    const glyph = (id) => container.querySelector(`.cct-node[data-id="${id}"]`);
    expect(glyph(1).classList.contains("cct-holds-match")).toBe(true);
    expect(glyph(1).getAttribute("data-holds-match")).toBe("1");
    expect(glyph(3).getAttribute("data-holds-match")).toBe("1");
    expect(glyph(5).classList.contains("cct-match")).toBe(true);
    expect(glyph(5).classList.contains("cct-holds-match")).toBe(false);
    expect(button(container, "Show all matches").getAttribute("aria-label")).toBe("Show all matches (opens 2 nodes)");
  });

  test("on the canvas backend the glyphs holding matches get dashed rings saying how many", () => {
    const { container } = mount({ backend: "canvas", collapsed: [1, 3], search: "kern" });
    const rings = [...container.querySelectorAll(".cct-ring.cct-match")];
    const holding = rings.filter((r) => r.classList.contains("cct-holds-match"));
    expect(rings.length).toBe(3);
    expect(holding.map((r) => r.getAttribute("data-holds-match"))).toEqual(["1", "1"]);
  });

  test("setting the search from Python is the same: counted and marked, nothing opens, nothing reported", () => {
    const { container, renderer, changes } = mount({ collapsed: [1, 3] });
    renderer.setState({ search: "kern" });
    expect(changes).toEqual([]);
    expect(renderer.state.collapsed).toEqual([1, 3]);
    expect(info(container)).toBe("3 matches, 2 hidden");
    expect(container.querySelector('.cct-node[data-id="3"]').getAttribute("data-holds-match")).toBe("1");
  });

  test("an invalid regular expression is a message; the last valid search stays", async () => {
    const { container, renderer, changes } = mount({ searchRegex: true });
    await type(container, "kernel_(");
    expect(info(container)).toMatch(/invalid regular expression/);
    expect(container.querySelector(".cct-search-info").classList.contains("cct-error-text")).toBe(true);
    expect(changes).toEqual([]);
    await type(container, "kernel_[ac]");
    expect(renderer.matches).toEqual([2, 5]);
  });
});

describe("stepping", () => {
  test("Enter opens exactly the ancestors of the next match, Shift+Enter goes back", async () => {
    const { container, renderer, changes } = mount({ collapsed: [1, 3] });
    await type(container, "kern");
    enter(container);
    expect(renderer.state.collapsed).toEqual([3]); // solve opened, io not
    expect(changes.at(-1)).toEqual({ collapsed: [3] });
    expect(renderer.cursor).toBe(2);
    expect(drawnIds(container)).toContain(2);
    expect(drawnIds(container)).not.toContain(4);
    expect(info(container)).toBe("1 of 3");
    button(container, "Next match").click();
    expect(renderer.state.collapsed).toEqual([]);
    expect(renderer.cursor).toBe(4);
    expect(info(container)).toBe("2 of 3");
    enter(container, true);
    expect(renderer.cursor).toBe(2);
    expect(info(container)).toBe("1 of 3");
    enter(container, true);
    expect(renderer.cursor).toBe(5); // wraps to the last
    // each opening is a change of its own: undo closes io again
    renderer.command("undo");
    expect(renderer.state.collapsed).toEqual([3]);
  });

  test("Enter searches what was typed at once, without waiting", () => {
    const { container, renderer } = mount({ collapsed: [1, 3] });
    const input = container.querySelector(".cct-search");
    input.value = "kernel_io";
    input.dispatchEvent(new Event("input"));
    enter(container);
    expect(renderer.state.search).toBe("kernel_io");
    expect(renderer.cursor).toBe(4);
    expect(renderer.state.collapsed).toEqual([1]);
  });

  test("a step from Python's command goes to that match", () => {
    const { renderer } = mount({ collapsed: [1, 3], search: "kern" });
    renderer.command("showMatch", 4);
    expect(renderer.cursor).toBe(4);
    expect(renderer.state.collapsed).toEqual([1]);
    expect(() => commandOf("showMatch", -1)).toThrow(RangeError);
  });
});

describe("show all", () => {
  test("opens every match's ancestors on request and says how many nodes it opened", async () => {
    const { container, renderer } = mount({ collapsed: [1, 3] });
    await type(container, "kern");
    button(container, "Show all matches").click();
    expect(renderer.state.collapsed).toEqual([]);
    expect(renderer.matches).toEqual([2, 4, 5]);
    expect(info(container)).toBe("3 matches; opened 2 nodes");
    expect(button(container, "Show all matches").disabled).toBe(true); // nothing hidden now
  });

  test("a match outside the focus is counted as such and not opened", () => {
    const { container, renderer } = mount({ collapsed: [3], focus: 1, search: "kern" });
    expect(info(container)).toBe("3 matches, 2 outside the view");
    renderer.command("showMatches");
    expect(renderer.state.collapsed).toEqual([3]);
  });
});

describe("a real profile (HPCToolkit allgather, 1,474 nodes)", () => {
  test("typing PMPI_ key by key keeps the drawing as it was; show all opens the matches", async () => {
    const { container, renderer } = mountRenderer(await realProfile("hpctoolkit-allgather"), {
      state: { colorBy: "time", sizeBy: "time (inc)" },
      layout: DRAWN_AT_ONCE,
    });
    const folded = renderer.state.collapsed;
    expect(folded.length).toBeGreaterThan(0); // folded to fit
    const before = drawnIds(container);
    for (const prefix of ["P", "PM", "PMP", "PMPI", "PMPI_"]) {
      renderer.command("search", prefix); // as each keystroke's search would
      expect(renderer.state.collapsed).toEqual(folded);
      expect(drawnIds(container)).toEqual(before);
    }
    expect(info(container)).toMatch(/^5 matches/);
    renderer.command("match", 1);
    expect(renderer.matches).toContain(renderer.cursor);
    renderer.command("showMatches");
    expect(renderer.matches.length).toBe(5);
    expect(drawnIds(container).length).toBeLessThan(before.length + 100);
  });
});

describe("under level of detail", () => {
  test("matches not loaded are counted from Python's count of the same search; steps ask Python", async () => {
    /** @type {[number, number][]} */
    const asked = [];
    const { container, renderer } = mountRenderer(lodTree(), {
      state: { ...TIME, search: "kernel" },
      onFind: async (node, step) => {
        asked.push([node, step]);
        return step === 0 ? null : 9;
      },
    });
    expect(info(container)).toBe("1 match");
    // a count of another search (typed since) is not this one's
    renderer.setSearchCount({ search: "kern", regex: false, caseSensitive: false, count: 40 });
    expect(info(container)).toBe("1 match");
    renderer.setSearchCount({ search: "kernel", regex: false, caseSensitive: false, count: 3 });
    expect(info(container)).toBe("3 matches, 2 not loaded");
    renderer.command("match", 1);
    await wait(0);
    expect(asked).toEqual([[-1, 1]]);
    expect(renderer.cursor).toBe(9); // Python's answer, shown
    renderer.command("showMatches");
    await wait(0);
    expect(asked).toEqual([
      [-1, 1],
      [-1, 0],
    ]);
    expect(info(container)).toBe("3 matches, 2 not loaded; opened 0 nodes");
  });
});
