// The commands as one union: `commandOf` (the renderer's `command(name, value)`) turns names and
// values into typed commands or refuses them, and the type check covers the type-level test.
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, test } from "vitest";
import { decodeTable } from "../../../src/cct/data/decode.js";
import { commandOf } from "../../../src/cct/state/commands.js";
import { smallTree } from "../../support/fixtures.js";
import { mountRenderer, newRenderer } from "../../support/mount.js";

const HERE = dirname(fileURLToPath(import.meta.url));

// jsdom has no canvas; say so quietly
beforeAll(() => {
  HTMLCanvasElement.prototype.getContext = () => null;
});

describe("commands", () => {
  test("a name and a value become a typed command", () => {
    expect(commandOf("expandAll")).toEqual({ type: "expandAll" });
    expect(commandOf("undo", 7)).toEqual({ type: "undo" });
    expect(commandOf("collapseToDepth", 2)).toEqual({ type: "collapseToDepth", depth: 2 });
    expect(commandOf("toggleRoot", 5)).toEqual({ type: "toggleRoot", id: 5 });
    expect(commandOf("inclusive", true)).toEqual({ type: "inclusive", on: true });
    expect(commandOf("search", "solve")).toEqual({ type: "search", pattern: "solve" });
    expect(commandOf("match", -1)).toEqual({ type: "match", step: -1 });
    expect(commandOf("reducer", "max")).toEqual({ type: "reducer", reducer: "max" });
    expect(commandOf("download", "png")).toEqual({ type: "download", format: "png" });
    expect(commandOf("select", [3, 1])).toEqual({ type: "select", ids: [3, 1] });
  });

  test("an unknown name or a wrong value is refused", () => {
    expect(() => commandOf("colapse")).toThrow(/unknown command "colapse"/);
    expect(() => commandOf("match", 2)).toThrow(/command "match" takes no 2/);
    expect(() => commandOf("toggleRoot", "5")).toThrow(RangeError);
    expect(() => commandOf("select", 3)).toThrow(/command "select" takes no 3/);
    expect(() => commandOf("select", [1, -2])).toThrow(RangeError);
  });

  test("select by name selects as a click: the view marks the nodes and reports them", () => {
    const selected = [];
    const container = document.createElement("div");
    document.body.appendChild(container);
    const renderer = newRenderer(container, { width: 900, height: 500, onSelect: (ids) => selected.push(ids) });
    renderer.setState({ colorBy: "time", sizeBy: "time (inc)" });
    renderer.setData(decodeTable(smallTree()));
    renderer.command("select", [2]);
    expect(selected).toEqual([[2]]);
    expect(renderer.selection).toEqual([2]);
    expect(container.querySelector('.cct-node.cct-selected[data-id="2"]')).not.toBeNull();
    renderer.destroy();
  });

  test("`npm run typecheck` checks the type-level test of the command union", () => {
    const config = JSON.parse(readFileSync(resolve(HERE, "../../../jsconfig.json"), "utf8"));
    expect(config.include).toContain("test/types/**/*.js");
    const check = readFileSync(resolve(HERE, "../../types/commands.check.js"), "utf8");
    expect(check.match(/@ts-expect-error/g)?.length).toBeGreaterThanOrEqual(9);
  });

  test("the renderer's dispatch runs every kind of command: set, collapse, cursor, select, escape, undo", () => {
    const { renderer, changes, selections } = mountRenderer(smallTree());
    const id = /** @type {any} */ (1);
    renderer.dispatch({ type: "set", state: { colorScale: "log" } });
    expect(renderer.state.colorScale).toBe("log");
    renderer.dispatch({ type: "collapse", id });
    expect(changes.at(-1)).toEqual({ collapsed: [1] });
    renderer.dispatch({ type: "cursor", id, reveal: false });
    expect(renderer.cursor).toBe(1);
    renderer.dispatch({ type: "select", ids: [id] });
    expect(selections.at(-1)).toEqual([1]);
    renderer.dispatch({ type: "escape" });
    expect(renderer.selection).toEqual([]);
    renderer.dispatch({ type: "undo" });
    expect(renderer.state.collapsed).toEqual([]);
    renderer.dispatch({ type: "focus", id });
    expect(renderer.state.focus).toBe(1);
    renderer.dispatch({ type: "focus", id: null });
    expect(renderer.state.focus).toBe(null);
    expect(() => renderer.command("colapse")).toThrow(/unknown command/);
    renderer.command("collapseToDepth", 1);
    expect(renderer.state.collapsed).toEqual([1]);
    renderer.destroy();
  });
});
