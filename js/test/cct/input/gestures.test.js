// The gestures on their own (js/src/cct/input/gestures.js): DOM events on a drawing become
// commands handed to `dispatch`, read off the picture drawn now; hover goes to the pointer. The
// picture is a real one of a level-of-detail table, whose rows are not node ids.
import { describe, expect, test } from "vitest";
import { decodeTable } from "../../../src/cct/data/decode.js";
import { createGestures } from "../../../src/cct/input/gestures.js";
import { picture } from "../../../src/cct/picture/picture.js";
import { DEFAULT_SIZES } from "../../../src/cct/picture/sizes.js";
import { VIEW_DEFAULTS } from "../../../src/contract.js";
import { payload } from "../../support/fixtures.js";

/** Rows 0..3 are nodes 0, 10, 11, 20; row 4 is a fold of 3 nodes under node 0. */
const TABLE = () =>
  decodeTable(
    payload({
      parent: [-1, 0, 1, 0, 0],
      names: ["main", "solve", "kernel", "io", "more"],
      metrics: { time: [1, 2, 3, 4, 5] },
      nodeId: [0, 10, 11, 20, -1],
      folded: [0, 0, 0, 0, 3],
      total: 30,
    }),
  );

function setup() {
  const table = TABLE();
  const pic = picture(table, { ...VIEW_DEFAULTS, colorBy: "time", sizeBy: "time" }, { ...DEFAULT_SIZES, room: null });
  const stage = document.body.appendChild(document.createElement("div"));
  const svg = /** @type {SVGSVGElement} */ (
    stage.appendChild(document.createElementNS("http://www.w3.org/2000/svg", "svg"))
  );
  /** @type {unknown[]} */ const commands = [];
  /** @type {unknown[]} */ const hovered = [];
  const store = { selection: /** @type {any[]} */ ([]), cursor: /** @type {any} */ (null) };
  /** the item key under the pointer: the event's `key` */
  const nodeAt = (/** @type {any} */ event) => event.key ?? null;
  const gestures = createGestures({
    stage,
    backend: () => ({ svg, nodeAt }),
    picture: () => pic,
    store,
    dispatch: (command) => commands.push(command),
    pointer: () => ({
      hover: (key) => hovered.push(key),
      moveTooltip: () => {},
      screenOf: () => ({ x: 0, y: 0 }),
    }),
    toolbar: null,
    brushing: () => false,
  });
  gestures.attach(svg);
  /** @param {string} type @param {number} key an item key (a row here) @param {object} [init] */
  const fire = (type, key, init = {}) => {
    const event = new MouseEvent(type, { bubbles: true, ...init });
    Object.defineProperty(event, "key", { value: key });
    svg.dispatchEvent(event);
  };
  const press = (/** @type {string} */ k, init = {}) =>
    stage.dispatchEvent(new KeyboardEvent("keydown", { key: k, bubbles: true, ...init }));
  return { pic, store, commands, hovered, fire, press };
}

describe("gestures dispatch commands in node ids", () => {
  test("a click sets the cursor and selects the node's id, not its row", () => {
    const { commands, fire } = setup();
    fire("click", 1);
    expect(commands).toEqual([
      { type: "cursor", id: 10, reveal: false },
      { type: "select", ids: [10] },
    ]);
  });

  test("a double-click collapses a node; on a fold it loads more under the fold's parent", () => {
    const { commands, fire } = setup();
    fire("dblclick", 3);
    fire("dblclick", 4);
    expect(commands).toEqual([
      { type: "collapse", id: 20 },
      { type: "loadMore", parent: 0 },
    ]);
  });

  test("keys: undo, redo, escape, Enter on the cursor, arrows move the cursor", () => {
    const { commands, press, store } = setup();
    press("z", { ctrlKey: true });
    press("z", { ctrlKey: true, shiftKey: true });
    press("Escape");
    expect(commands.splice(0)).toEqual([{ type: "undo" }, { type: "redo" }, { type: "escape" }]);
    store.cursor = 10;
    press("Enter");
    press("ArrowRight");
    press("ArrowLeft");
    expect(commands).toEqual([
      { type: "collapse", id: 10 },
      { type: "cursor", id: 11, reveal: true },
      { type: "cursor", id: 0, reveal: true },
    ]);
  });

  test("hover goes to the pointer by item key", () => {
    const { hovered, fire } = setup();
    fire("pointermove", 2);
    expect(hovered).toEqual([2]);
  });
});
