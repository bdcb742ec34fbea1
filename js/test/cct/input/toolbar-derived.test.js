import { describe, expect, test } from "vitest";
import { decodeTable } from "../../../src/cct/data/decode.js";
import { kindsText } from "../../../src/cct/picture/status-text.js";
import { payload } from "../../support/fixtures.js";
import { mountRenderer } from "../../support/mount.js";

// A derived metric (Python's w.derive) reaches the page as an ordinary metric of the payload, of
// its kind (ratio by default) and rule "expression": the colour menu lists it, choosing it colours
// the tree by it, and the status line says where its kind came from. Its name is text.
const DERIVED = "exc share <b>%</b>";

function data() {
  const p = payload({
    parent: [-1, 0, 0],
    names: ["main", "solve", "io"],
    metrics: { time: [0, 3, 1], "time (inc)": [4, 3, 1], [DERIVED]: [0, 1, Number.NaN] },
    kinds: { time: "exclusive", "time (inc)": "inclusive", [DERIVED]: "ratio" },
    partners: { time: "time (inc)", "time (inc)": "time" },
  });
  const metric = p.metrics.find((m) => m.name === DERIVED);
  Object.assign(/** @type {object} */ (metric), { rule: "expression", why: "derived: `time` / `time (inc)`" });
  return p;
}

describe("a derived metric in the page", () => {
  test("the colour menu lists it with its kind; choosing it colours by it", () => {
    const { container, renderer, changes } = mountRenderer(data(), {
      state: { colorBy: "time", sizeBy: "time (inc)" },
    });
    const button = /** @type {HTMLButtonElement} */ (container.querySelector("[data-picker=colour]"));
    button.click();
    const options = [...container.querySelectorAll("[role=option]")];
    const listed = options.map((o) => o.textContent);
    expect(listed).toContain(`${DERIVED} (ratio)`);
    expect(container.querySelector("b")).toBeNull(); // the name is text, never markup
    const option = /** @type {HTMLElement} */ (options.find((o) => o.textContent === `${DERIVED} (ratio)`));
    option.click();
    expect(renderer.state.colorBy).toBe(DERIVED);
    expect(changes.at(-1)).toMatchObject({ colorBy: DERIVED });
  });

  test("the status line names w.derive() as what decided its kind", () => {
    const table = decodeTable(data());
    const said = kindsText(table, /** @type {any} */ ({ colorBy: DERIVED, sizeBy: "time (inc)" }));
    expect(said.text).toContain("w.derive()");
    expect(said.title).toContain(`${DERIVED}: ratio (derived: \`time\` / \`time (inc)\`)`);
  });
});
