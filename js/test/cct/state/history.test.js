import { expect, test } from "vitest";
import { createHistory } from "../../../src/cct/state/history.js";

test("undo and redo walk the recorded states; a new step drops the redo branch", () => {
  const h = createHistory();
  h.record({ focus: null });
  h.record({ focus: 3 });
  h.record({ focus: 3 }); // an echo: not a step
  h.record({ focus: 5 });
  expect(h.undo()).toEqual({ focus: 3 });
  expect(h.undo()).toEqual({ focus: null });
  expect(h.undo()).toBeNull();
  expect(h.redo()).toEqual({ focus: 3 });
  h.record({ focus: 7 });
  expect(h.canRedo()).toBe(false);
  expect(h.undo()).toEqual({ focus: 3 });
});

test("the history is bounded", () => {
  const h = createHistory(3);
  for (let i = 0; i < 10; i++) h.record({ i });
  expect(h.undo()).toEqual({ i: 8 });
  expect(h.undo()).toEqual({ i: 7 });
  expect(h.undo()).toBeNull();
});
