// The picture of a view from its own drawing (js/src/cct/draw/live-picture.js): its overlay (or
// SVG drawing) as a standalone SVG.
// (Painting needs a real canvas: tests/e2e/test_static_picture.py checks the whole picture.)
import { expect, test } from "vitest";
import { figureStyle } from "../../../src/cct/draw/legend/figure-style.js";
import { livePicture, overlaySvg, svgPicture } from "../../../src/cct/draw/live-picture.js";

const SVG_NS = "http://www.w3.org/2000/svg";

function overlay() {
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("class", "cct-svg cct-overlay");
  svg.setAttribute("role", "img");
  svg.innerHTML = `<g class="cct-viewport"><g class="cct-content">
      <g class="cct-rings"><circle class="cct-ring cct-selected" r="4" data-id="3" aria-selected="true"/></g>
      <g class="cct-rings"><circle class="cct-ring cct-hovered" r="4" data-id="5"/></g>
      <g class="cct-rings"><circle class="cct-ring cct-cursor" r="4" data-id="6"/></g>
      <g class="cct-rings"><circle class="cct-ring cct-match" r="4" data-id="7"/></g></g>
    <g class="cct-labels"><text class="cct-label">&lt;b&gt;main&lt;/b&gt;</text></g>
    <g class="cct-hover-label"><text>hovered</text></g></g>`;
  document.body.append(svg);
  return svg;
}

test("the overlay keeps what a figure shows: labels, selection and match rings as outlines", () => {
  const live = overlay();
  const style = figureStyle("screen");
  const text = overlaySvg(live, style, 2, { width: 300, height: 200 });
  const doc = new DOMParser().parseFromString(text, "image/svg+xml");
  const svg = doc.documentElement;
  expect(svg.getAttribute("viewBox")).toBe("0 0 300 200");
  expect([svg.getAttribute("width"), svg.getAttribute("height")]).toEqual(["300", "200"]);
  const rings = [...svg.querySelectorAll("circle")];
  expect(rings.map((c) => c.getAttribute("data-id"))).toEqual(["3", "7"]); // no hover, no cursor
  const [selected, match] = rings;
  expect(selected.getAttribute("stroke")).toBe(style.selected);
  expect(match.getAttribute("stroke")).toBe(style.match);
  expect(selected.getAttribute("fill")).toBe("none");
  expect(svg.querySelector(".cct-hover-label")).toBeNull();
  expect(svg.querySelector("[role], [aria-selected]")).toBeNull();
  // names stay text
  expect(svg.querySelector(".cct-label")?.textContent).toBe("<b>main</b>");
  expect(svg.querySelector("b")).toBeNull();
  // the live overlay itself is untouched
  expect(live.querySelectorAll(".cct-ring")).toHaveLength(4);
  expect(live.getAttribute("role")).toBe("img");
});

test("no picture where the page cannot paint (no canvas)", () => {
  const backend = {
    *paintOn() {
      yield;
      return 0;
    },
  };
  expect(livePicture({ backend, overlay: overlay(), size: { width: 10, height: 10 }, k: 1 }, 1)).toBeNull();
});

test("the labels' grounds are measured in the page, not on the copy (which is not laid out)", () => {
  // as Chromium: a text out of the page measures as an empty box at 0, 0
  const proto = /** @type {any} */ (globalThis.SVGElement.prototype);
  const had = Object.getOwnPropertyDescriptor(proto, "getBBox");
  proto.getBBox = function () {
    const at = 10 * Number(this.getAttribute("data-at") ?? 0);
    return this.isConnected ? { x: at, y: at + 1, width: 40, height: 12 } : { x: 0, y: 0, width: 0, height: 0 };
  };
  try {
    const live = overlay();
    const labels = /** @type {Element} */ (live.querySelector(".cct-labels"));
    labels.innerHTML =
      '<text class="cct-label" data-at="1">main</text><text class="cct-label" data-at="3">solve</text>';
    const text = overlaySvg(live, figureStyle("screen"), 1, { width: 300, height: 200 });
    const svg = new DOMParser().parseFromString(text, "image/svg+xml").documentElement;
    const grounds = [...svg.querySelectorAll(".cct-label-grounds rect")].map((r) =>
      ["x", "y", "width", "height"].map((a) => Number(r.getAttribute(a))),
    );
    expect(grounds).toEqual([
      [10, 11, 40, 12],
      [30, 31, 40, 12],
    ]);
    expect(svg.querySelector(".cct-label-grounds")?.getAttribute("fill")).toBe(figureStyle("screen").background);
    // the grounds replace the stroked halo, under the labels
    expect(svg.querySelector(".cct-labels")?.getAttribute("stroke")).toBe("none");
    expect(svg.querySelector(".cct-label-grounds")?.nextElementSibling?.getAttribute("class")).toBe("cct-labels");
  } finally {
    if (had) Object.defineProperty(proto, "getBBox", had);
    else delete proto.getBBox;
  }
});

test("no picture of an SVG drawing where the page cannot paint (no canvas)", () => {
  expect(svgPicture({ svg: overlay(), size: { width: 10, height: 10 }, k: 1 }, 1)).toBeNull();
});
