import { interpolateCividis, interpolateMagma, interpolateRdBu } from "d3-scale-chromatic";
import { describe, expect, test } from "vitest";
import { decodeTable } from "../../../src/cct/data/decode.js";
import { figureStyle } from "../../../src/cct/draw/legend/figure-style.js";
import { figureSVG, PROVENANCE_NS } from "../../../src/cct/figure/figure.js";
import { fromBase64 } from "../../../src/figure-page.js";
import { payload, randomTree, smallTree } from "../../support/fixtures.js";
import { newRenderer } from "../../support/mount.js";

const STATE = { colorBy: "time", sizeBy: "time (inc)" };

/** The legends' titles, each on one line again. @param {Element} root */
const titles = (root) =>
  [...root.querySelectorAll(".cct-legend")].map((g) =>
    [...g.querySelectorAll(".cct-legend-title")].map((t) => t.textContent).join(" "),
  );
/** Where a group is translated to. @param {Element} g */
const at = (g) => {
  const [x, y] = (g.getAttribute("transform") ?? "").match(/-?[\d.]+/g)?.map(Number) ?? [0, 0];
  return { x, y };
};

function parse(svg) {
  const doc = new DOMParser().parseFromString(svg, "image/svg+xml");
  expect(doc.querySelector("parsererror")).toBeNull();
  return doc.documentElement;
}

describe("figureSVG", () => {
  test("is a standalone SVG: namespace, size, view box, background, no style sheet needed", () => {
    const { svg, nodes } = figureSVG(decodeTable(smallTree()), STATE, {
      width: 600,
      height: 400,
      widthAttr: "6.25in",
      heightAttr: "4.16667in",
    });
    const root = parse(svg);
    expect(root.namespaceURI).toBe("http://www.w3.org/2000/svg");
    expect(root.getAttribute("width")).toBe("6.25in");
    expect(root.getAttribute("viewBox")).toBe("0 0 600 400");
    expect(root.getAttribute("font-family")).toContain("sans-serif");
    expect(nodes).toBe(6);
    expect(root.querySelectorAll(".cct-node")).toHaveLength(6);
    expect(root.querySelector(".cct-background").getAttribute("fill")).toBe("#ffffff");
    // every look is an attribute: links, node outlines, labels, legend text
    expect(root.querySelector(".cct-links").getAttribute("stroke")).toBe("#b0b0b0");
    expect(root.querySelector(".cct-nodes").getAttribute("stroke")).toBe("#444444");
    expect(root.querySelector(".cct-labels").getAttribute("fill")).toBe("#1f1f1f");
    expect(root.querySelector(".cct-legend-title").getAttribute("font-weight")).toBe("600");
    // nothing interactive or external is left
    expect(svg).not.toMatch(/aria-|role=|tabindex|style=|href=|<image|@import|url\(http/);
  });

  test("draws every node with the SVG backend, even past the canvas threshold", () => {
    // (a zoomed view's frame, as the user chose it: no folding to fit the figure)
    const { svg, nodes, folded } = figureSVG(
      decodeTable(randomTree(4500)),
      { ...STATE, backend: "canvas", foldToFit: false },
      { width: 900, height: 600, transform: { x: 0, y: 0, k: 1 } },
    );
    expect(nodes).toBe(4500);
    expect(folded).toBe(0);
    expect(parse(svg).querySelectorAll("circle.cct-node, path.cct-node")).toHaveLength(4500);
  }, 30_000); // 4,500 SVG nodes in jsdom: 2 s alone, over 5 s on a loaded 2-core machine

  test("a fitted figure of a view opened wide folds to fit its size, keeps the selection in sight and says so", () => {
    const table = decodeTable(randomTree(800));
    const deep = table.size - 1; // a node far down the tree: its ancestors stay open
    const column = { width: 336, height: 250, style: /** @type {const} */ ("paper"), selection: [deep] };
    const { svg, nodes, folded } = figureSVG(table, { ...STATE, foldToFit: false }, column);
    // 800 open nodes in a column: most fold away (the marks drawn are nodes and folds' glyphs)
    expect(folded).toBeGreaterThan(400);
    expect(nodes).toBeLessThan(120);
    const doc = parse(svg);
    const drawn = new Set([...doc.querySelectorAll(".cct-node")].map((n) => Number(n.getAttribute("data-id"))));
    for (let p = table.parent[table.rowOf(deep)]; p >= 0; p = table.parent[p])
      expect(drawn.has(table.idOf(p))).toBe(true);
    expect(doc.querySelector("title")?.textContent).toMatch(/open nodes folded to fit\)$/);
    const record = JSON.parse(doc.getElementsByTagNameNS(PROVENANCE_NS, "provenance")[0].textContent ?? "{}");
    expect(record.folded_to_fit).toBe(folded);
    // a view that fits its figure folds nothing and says nothing
    const small = figureSVG(decodeTable(smallTree()), { ...STATE, foldToFit: false }, { width: 800, height: 500 });
    expect(small.folded).toBe(0);
    expect(parse(small.svg).querySelector("title")?.textContent).not.toMatch(/folded/);
  }, 30_000);

  test("keeps the view state: collapsed subtrees, focus, selection and search marks", () => {
    const table = decodeTable(smallTree());
    const { svg, nodes } = figureSVG(
      table,
      { ...STATE, collapsed: [1], search: "init" },
      {
        width: 800,
        height: 500,
        selection: [4],
      },
    );
    const root = parse(svg);
    expect(nodes).toBe(4); // main, solve (collapsed), io, init
    expect(root.querySelector('.cct-collapsed[data-id="1"]')).not.toBeNull();
    const io = root.querySelector('.cct-node[data-id="4"]');
    expect(io.getAttribute("class")).toContain("cct-selected");
    expect(io.getAttribute("stroke")).toBe("#1976d2");
    expect(root.querySelector('.cct-node[data-id="5"]').getAttribute("stroke")).toBe("#e65100");
    const focused = parse(figureSVG(table, { ...STATE, focus: 1 }, { width: 800, height: 500 }).svg);
    expect([...focused.querySelectorAll(".cct-node")].map((e) => e.getAttribute("data-id")).sort()).toEqual([
      "1",
      "2",
      "3",
    ]);
  });

  test("names with markup characters stay text", () => {
    const names = ['<script>alert("x")</script>', "a & b", "it's", "main"];
    const spec = payload({
      parent: [-1, 0, 0, 0],
      names: names.slice(3).concat(names.slice(0, 3)),
      metrics: { time: [1, 2, 3, 4] },
    });
    const { svg } = figureSVG(
      decodeTable(spec),
      { colorBy: "time", sizeBy: "time" },
      { width: 900, height: 500, title: "<b>&" },
    );
    expect(svg).not.toContain("<script>");
    expect(svg).toContain("&lt;script&gt;");
    const root = parse(svg);
    const labels = [...root.querySelectorAll(".cct-label")].map((e) => e.textContent);
    expect(labels).toEqual(expect.arrayContaining(["a & b", "it's"]));
    expect(root.querySelector("title").textContent).toBe("<b>&");
  });

  test("records provenance as JSON and Dublin Core in <metadata>", () => {
    const provenance = {
      generator: "cctviz 9.9",
      created: "2026-11-22T00:00:00Z",
      source: "run <1>.cali",
      state: { focus: null },
    };
    const { svg } = figureSVG(decodeTable(smallTree()), STATE, { width: 800, height: 500, provenance });
    const root = parse(svg);
    const record = root.getElementsByTagNameNS(PROVENANCE_NS, "provenance")[0];
    expect(JSON.parse(record.textContent)).toEqual(provenance);
    const dc = (name) => root.getElementsByTagNameNS("http://purl.org/dc/elements/1.1/", name)[0]?.textContent;
    expect(dc("source")).toBe("run <1>.cali");
    expect(dc("date")).toBe("2026-11-22T00:00:00Z");
  });

  test("paper style: black text, thin strokes, cividis unless a palette is chosen, units in legends", () => {
    const table = decodeTable(smallTree());
    const opts = { width: 336, height: 240, style: "paper", fontSize: 9, units: { "time (inc)": "s" } };
    const root = parse(figureSVG(table, STATE, opts).svg);
    expect(root.querySelector(".cct-labels").getAttribute("fill")).toBe("#000000");
    expect(Number(root.querySelector(".cct-links").getAttribute("stroke-width"))).toBeLessThan(1.2);
    expect(titles(root)).toContain("size: time (inc) [s]"); // the name says it is inclusive: said once
    // narrow figure: legends side by side above the tree, in 9 pt text
    const layer = root.querySelector(".cct-legends");
    expect(layer.getAttribute("transform")).toBeNull();
    expect(Number(layer.getAttribute("font-size"))).toBe((9 * 96) / 72);
    const [colour, size] = [...layer.querySelectorAll(".cct-color-legend, .cct-size-legend")].map(at);
    expect(size.y).toBe(colour.y);
    expect(size.x).toBeGreaterThan(colour.x + 100);
    const stops = [...root.querySelectorAll(".cct-legend stop")].map((e) => e.getAttribute("stop-color"));
    expect(stops[0]).toBe(interpolateCividis(0));
    const chosen = parse(figureSVG(table, { ...STATE, palette: "magma" }, opts).svg);
    expect(chosen.querySelector(".cct-legend stop").getAttribute("stop-color")).toBe(interpolateMagma(0));
  });

  test("paper style keeps a signed difference diverging and centred on 0", () => {
    const diff = decodeTable(
      payload({
        parent: [-1, 0, 0, 1],
        names: ["main", "faster", "slower", "kernel"],
        metrics: { delta: [-1, -30, 5, 12], "delta (inc)": [-14, -18, 5, 12] },
        kinds: { delta: "exclusive", "delta (inc)": "inclusive" },
      }),
    );
    const state = { colorBy: "delta", sizeBy: "delta (inc)" };
    const opts = { width: 336, height: 250, style: "paper" };
    const root = parse(figureSVG(diff, state, opts).svg);
    const stops = [...root.querySelectorAll(".cct-color-legend stop")].map((e) => e.getAttribute("stop-color"));
    expect(stops[0]).not.toBe(interpolateCividis(0));
    expect(stops[0]).toBe(interpolateRdBu(1)); // rdbu, its low end blue
    // symmetric domain: zero sits in the middle of the bar
    const ticks = [...root.querySelectorAll(".cct-color-legend .cct-legend-tick")].map((e) => e.textContent);
    expect(ticks.slice(0, 2)).toEqual(["−30", "30"]);
  });

  test("bad sizes and styles are named", () => {
    const table = decodeTable(smallTree());
    expect(() => figureSVG(table, STATE, { width: 0, height: 10 })).toThrow(/figure size must be positive/);
    expect(() => figureSVG(table, STATE, { width: 10, height: 10, style: "poster" })).toThrow(
      /unknown figure style "poster"; accepted: screen, paper/,
    );
    expect(() => figureStyle("paper", { fontSize: -1 })).toThrow(/positive number of points/);
  });

  test("leaves the page as it was", () => {
    const before = document.body.children.length;
    figureSVG(decodeTable(smallTree()), STATE, { width: 800, height: 500 });
    expect(document.body.children.length).toBe(before);
  });
});

describe("figure page", () => {
  test("decodes base64 buffers anywhere in the payload", () => {
    const bytes = Uint8Array.from([1, 0, 0, 0, 255, 255, 255, 255]);
    const encoded = { a: [{ $b64: btoa(String.fromCharCode(...bytes)) }], b: "text", c: 3 };
    const decoded = fromBase64(encoded);
    expect([...decoded.a[0]]).toEqual([...bytes]);
    expect(decoded.b).toBe("text");
    expect(decoded.c).toBe(3);
  });
});

describe("download buttons", () => {
  test("appear with onDownload and ask for SVG or PNG", async () => {
    const asked = [];
    const container = document.createElement("div");
    document.body.appendChild(container);
    const renderer = newRenderer(container, { width: 800, height: 400, onDownload: (f) => asked.push(f) });
    renderer.setState(STATE);
    renderer.setData(decodeTable(smallTree()));
    container.querySelector('button[title="Save the view as an SVG file"]').click();
    container.querySelector('button[title="Save the view as a PNG file"]').click();
    expect(asked).toEqual(["svg", "png"]);
    expect(() => renderer.command("download", "jpg")).toThrow(/download format is "svg" or "png"; got "jpg"/);
    const plain = document.createElement("div");
    document.body.appendChild(plain);
    newRenderer(plain, { width: 800, height: 400 });
    expect(plain.querySelector('button[title="Save the view as an SVG file"]')).toBeNull();
  });
});

describe("zoomed views", () => {
  test("a transform shows that part of the tree in the view's frame", () => {
    const table = decodeTable(smallTree());
    const fitted = parse(figureSVG(table, STATE, { width: 800, height: 500 }).svg);
    const zoomed = parse(figureSVG(table, STATE, { width: 800, height: 500, transform: { x: -100, y: 40, k: 3 } }).svg);
    expect(zoomed.querySelector(".cct-viewport").getAttribute("transform")).toBe("translate(-100,40) scale(3)");
    expect(fitted.querySelector(".cct-viewport").getAttribute("transform")).not.toBe("translate(-100,40) scale(3)");
    expect(zoomed.getAttribute("viewBox")).toBe("0 0 800 500");
  });
});

describe("figure legends", () => {
  const long = "inclusive#scale#sum#cupti.host.duration";
  const table = decodeTable(
    payload({
      parent: [-1, 0, 0, 1, 1],
      names: ["main", "solve", "io", "kernel", "copy"],
      metrics: { [long]: [9, 7, 1, 4, 2], time: [1, 1, 1, 4, 2] },
      kinds: { [long]: "inclusive", time: "exclusive" },
    }),
  );
  const narrow = { width: 336, height: 250, style: /** @type {const} */ ("paper") };

  test("titles are whole, on more lines where they need them, never cut", () => {
    const root = parse(figureSVG(table, { colorBy: long, sizeBy: long }, narrow).svg);
    const lines = [...root.querySelectorAll(".cct-color-legend .cct-legend-title")].map((t) => t.textContent);
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.join("").replaceAll(" ", "")).toBe(`colour:${long}`);
    expect(root.textContent).not.toContain("…");
  });

  test("the glyphs drawn are explained in a key under the legends; none, no key", () => {
    const root = parse(figureSVG(table, { colorBy: "time", sizeBy: long, collapsed: [1] }, narrow).svg);
    const key = [...root.querySelectorAll(".cct-legend-key")].map((t) => t.textContent);
    expect(key).toEqual(["collapsed subtree (+N hidden)"]);
    const glyph = root.querySelector(".cct-key-glyph");
    expect(glyph?.getAttribute("stroke")).toBe("#000000");
    const legends = [...root.querySelectorAll(".cct-color-legend, .cct-size-legend")].map(at);
    expect(at(/** @type {Element} */ (root.querySelector(".cct-glyph-key"))).y).toBeGreaterThan(
      Math.max(...legends.map((l) => l.y)),
    );
    const pruned = parse(figureSVG(table, { colorBy: "time", sizeBy: long, prune: [2, 10] }, narrow).svg);
    expect(pruned.querySelector(".cct-legend-key")?.textContent).toBe("N hidden nodes (pruned)");
    const plain = parse(figureSVG(table, { colorBy: "time", sizeBy: long, foldToFit: false }, narrow).svg);
    expect(plain.querySelector(".cct-glyph-key")).toBeNull();
  });
});
