// The tests' shared mount: a renderer mounted by a test is destroyed after that test, so no later
// task of it (a label slice) runs once the test environment is torn down.
import { expect, test } from "vitest";
import { smallTree } from "../../support/fixtures.js";
import { mountRenderer } from "../../support/mount.js";

/** @type {ReturnType<typeof mountRenderer> | null} */
let kept = null;

test("a mounted renderer draws into its container", () => {
  kept = mountRenderer(smallTree());
  expect(kept.container.querySelector(".cct-root")).not.toBeNull();
});

test("it was destroyed after the test that mounted it; destroying it again does nothing", () => {
  expect(kept?.container.querySelector(".cct-root")).toBeNull();
  expect(() => kept?.renderer.destroy()).not.toThrow();
});
