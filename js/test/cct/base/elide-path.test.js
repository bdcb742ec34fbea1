// A long path with its middle left out (js/src/cct/base/elide-path.js), as both breadcrumbs show it.
import { expect, test } from "vitest";
import { elidePath } from "../../../src/cct/base/elide-path.js";

test("the root, a place for what is left out, and the nearest steps; never one step left out", () => {
  const path = (n) => Array.from({ length: n }, (_, i) => i);
  for (let n = 0; n <= 5; n++) expect(elidePath(path(n), 3)).toEqual({ shown: path(n), left: [] });
  expect(elidePath(path(6), 3)).toEqual({ shown: [0, null, 3, 4, 5], left: [1, 2] });
  expect(elidePath(path(12), 3)).toEqual({ shown: [0, null, 9, 10, 11], left: [1, 2, 3, 4, 5, 6, 7, 8] });
  expect(elidePath(path(4), 1)).toEqual({ shown: [0, null, 3], left: [1, 2] });
});
