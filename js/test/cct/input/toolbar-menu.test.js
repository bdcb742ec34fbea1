import { describe, expect, test } from "vitest";
import { createPicker } from "../../../src/cct/input/picker.js";
import { payload } from "../../support/fixtures.js";
import { mountRenderer } from "../../support/mount.js";

// The toolbar's compact controls: metric pickers that show and search full names, and the "⋯"
// menu of the rest, all worked from the keyboard.
const LONG = [
  "sum#sum#time.duration",
  "sum#scale#cupti.activity.duration",
  "sum#scale#cupti.host.duration",
  "avg#inclusive#sum#time.duration",
];

/** A picker of LONG in a new container; what it reports is collected. */
function picker() {
  const parent = document.body.appendChild(document.createElement("div"));
  /** @type {string[]} */ const chosen = [];
  const p = createPicker(parent, "colour", (v) => chosen.push(v));
  p.setOptions(LONG);
  p.show(LONG[0]);
  const filter = /** @type {HTMLInputElement} */ (parent.querySelector(".cct-pop input"));
  const shown = () => [...parent.querySelectorAll("[role=option]")].filter((o) => !o.hidden).map((o) => o.textContent);
  const active = () => parent.querySelector(".cct-active")?.textContent;
  return { parent, p, chosen, filter, shown, active };
}

/** @param {Element} el @param {string} key */
const press = (el, key) => el.dispatchEvent(new KeyboardEvent("keydown", { key, bubbles: true, cancelable: true }));

describe("metric picker", () => {
  test("the button shows the choice; its full name is in its tooltip and accessible name", () => {
    const { p } = picker();
    p.show(LONG[1]);
    expect(p.button.querySelector("span + span").textContent).toBe(LONG[1]);
    expect(p.button.title).toBe(`colour: ${LONG[1]}`);
    expect(p.button.getAttribute("aria-label")).toBe(`colour: ${LONG[1]}`);
    expect(p.button.dataset.value).toBe(LONG[1]);
  });

  test("opening lists every full name, the choice marked, the focus in the filter box", () => {
    const { parent, p, shown, filter, active } = picker();
    p.show(LONG[2]);
    p.button.click();
    expect(p.button.getAttribute("aria-expanded")).toBe("true");
    expect(shown()).toEqual(LONG);
    expect(document.activeElement).toBe(filter);
    expect(active()).toBe(LONG[2]);
    const selected = [...parent.querySelectorAll("[aria-selected=true]")].map((o) => o.textContent);
    expect(selected).toEqual([LONG[2]]);
  });

  test("typing narrows the list to names holding every word, in any case; Enter chooses", () => {
    const { p, shown, filter, chosen } = picker();
    p.button.click();
    filter.value = "CUPTI dur";
    filter.dispatchEvent(new Event("input"));
    expect(shown()).toEqual([LONG[1], LONG[2]]);
    filter.value = "host";
    filter.dispatchEvent(new Event("input"));
    expect(shown()).toEqual([LONG[2]]);
    press(filter, "Enter");
    expect(chosen).toEqual([LONG[2]]);
    expect(p.button.getAttribute("aria-expanded")).toBe("false");
    expect(document.activeElement).toBe(p.button);
  });

  test("arrow keys move through the list and stop at its ends; Escape closes without choosing", () => {
    const { parent, p, filter, active, chosen } = picker();
    press(p.button, "ArrowDown"); // opens
    expect(active()).toBe(LONG[0]);
    press(filter, "ArrowDown");
    press(filter, "ArrowDown");
    expect(active()).toBe(LONG[2]);
    expect(filter.getAttribute("aria-activedescendant")).toBe(parent.querySelector(".cct-active").id);
    for (let i = 0; i < 5; i++) press(filter, "ArrowDown");
    expect(active()).toBe(LONG[3]);
    press(filter, "ArrowUp");
    expect(active()).toBe(LONG[2]);
    press(filter, "Escape");
    expect(chosen).toEqual([]);
    expect(p.button.getAttribute("aria-expanded")).toBe("false");
    expect(document.activeElement).toBe(p.button);
  });

  test("a click on a name chooses it; the choice already made reports nothing", () => {
    const { parent, p, chosen } = picker();
    p.button.click();
    /** @type {HTMLElement} */ (parent.querySelectorAll("[role=option]")[3]).click();
    expect(chosen).toEqual([LONG[3]]);
    p.button.click();
    /** @type {HTMLElement} */ (parent.querySelectorAll("[role=option]")[0]).click();
    expect(chosen).toEqual([LONG[3]]); // LONG[0] is still shown: only the view state changes it
  });

  test("names are text, never HTML", () => {
    const parent = document.body.appendChild(document.createElement("div"));
    const p = createPicker(parent, "size", () => {});
    p.setOptions(["<img src=x onerror=alert(1)>"]);
    p.show("<img src=x onerror=alert(1)>");
    expect(parent.querySelector("img")).toBeNull();
    expect(parent.querySelector("[role=option]").textContent).toBe("<img src=x onerror=alert(1)>");
  });
});

describe("toolbar", () => {
  const metrics = Object.fromEntries(LONG.map((m, i) => [m, [i + 1, i + 2]]));
  const data = () => payload({ parent: [-1, 0], names: ["main", "solve"], metrics });
  const state = { colorBy: LONG[0], sizeBy: LONG[0] };

  test("choosing a metric by keyboard sets the view's colour metric", () => {
    const { container, renderer, changes } = mountRenderer(data(), { state });
    const button = /** @type {HTMLButtonElement} */ (container.querySelector("[data-picker=colour]"));
    press(button, "ArrowDown");
    const filter = /** @type {HTMLElement} */ (document.activeElement);
    for (const c of "activity") {
      /** @type {HTMLInputElement} */ (filter).value += c;
      filter.dispatchEvent(new Event("input"));
    }
    press(filter, "Enter");
    expect(renderer.state.colorBy).toBe(LONG[1]);
    expect(changes.at(-1)).toMatchObject({ colorBy: LONG[1] });
    expect(button.title).toBe(`colour: ${LONG[1]}`);
  });

  test("the toolbar is one row; the rest opens from '⋯', Escape closes it and gives the focus back", () => {
    const { container } = mountRenderer(data(), { state });
    const bar = container.querySelector(".cct-toolbar");
    expect(bar.querySelectorAll(".cct-toolbar-row").length).toBe(1);
    const more = /** @type {HTMLButtonElement} */ (bar.querySelector(".cct-more"));
    const menu = /** @type {HTMLElement} */ (bar.querySelector(".cct-menu"));
    expect(menu.hidden).toBe(true);
    expect(more.getAttribute("aria-controls")).toBe(menu.id);
    // every control is still there, in the menu: nothing removed
    for (const name of ["palette", "scale", "legend", "legend ends", "table", "depth", "inclusive metrics"]) {
      expect(menu.querySelector(`[aria-label="${name}"]`), name).not.toBeNull();
    }
    more.click();
    expect(menu.hidden).toBe(false);
    expect(more.getAttribute("aria-expanded")).toBe("true");
    const palette = /** @type {HTMLSelectElement} */ (menu.querySelector('[aria-label="palette"]'));
    palette.focus();
    press(palette, "Escape");
    expect(menu.hidden).toBe(true);
    expect(document.activeElement).toBe(more);
  });

  test("a button of the menu acts, then the menu closes; the focus leaving the toolbar closes it", () => {
    const { container, renderer } = mountRenderer(data(), { state, collapsed: [] });
    const more = /** @type {HTMLButtonElement} */ (container.querySelector(".cct-more"));
    const menu = /** @type {HTMLElement} */ (container.querySelector(".cct-menu"));
    more.click();
    renderer.setState({ collapsed: [0] });
    /** @type {HTMLButtonElement} */ (menu.querySelector('[aria-label="Expand every collapsed subtree"]')).click();
    expect(renderer.state.collapsed).toEqual([]);
    expect(menu.hidden).toBe(true);
    more.click();
    const stage = /** @type {HTMLElement} */ (container.querySelector(".cct-stage"));
    container
      .querySelector('[aria-label="palette"]')
      .dispatchEvent(new FocusEvent("focusout", { bubbles: true, relatedTarget: stage }));
    expect(menu.hidden).toBe(true);
  });
});
