// Only the latest request's answer counts (js/src/cct/base/latest.js): the Source, Ranks and
// Changes tabs drop an older request's late answer or error.
import { describe, expect, test, vi } from "vitest";
import { latestOnly } from "../../../src/cct/base/latest.js";

/** A request answered when the test says. */
function later() {
  /** @type {(v: unknown) => void} */ let answer = () => {};
  /** @type {(e: unknown) => void} */ let refuse = () => {};
  const promise = new Promise((resolve, reject) => {
    answer = resolve;
    refuse = reject;
  });
  return { promise, answer, refuse };
}

describe("latestOnly", () => {
  test("an older request's answer and error arriving late are dropped; the latest is used", async () => {
    const latest = latestOnly();
    const use = vi.fn();
    const fail = vi.fn();
    const [a, b, c] = [later(), later(), later()];
    const first = latest.run(() => a.promise, use, fail);
    const second = latest.run(() => b.promise, use, fail);
    b.answer("second");
    await second;
    a.answer("first");
    await first;
    expect(use.mock.calls).toEqual([["second"]]);
    const third = latest.run(() => c.promise, use, fail);
    const fourth = latest.run(async () => "fourth", use, fail);
    c.refuse(new Error("late"));
    await Promise.all([third, fourth]);
    expect(use.mock.calls).toEqual([["second"], ["fourth"]]);
    expect(fail).not.toHaveBeenCalled();
  });

  test("the latest request's error, or what `use` throws, goes to `fail`; cancel drops the pending one", async () => {
    const latest = latestOnly();
    const fail = vi.fn();
    await latest.run(
      () => Promise.reject(new Error("no ranks")),
      () => {},
      fail,
    );
    await latest.run(
      () => 1,
      () => {
        throw new Error("bad reply");
      },
      fail,
    );
    expect(fail.mock.calls.map(([e]) => e.message)).toEqual(["no ranks", "bad reply"]);
    const use = vi.fn();
    const pending = later();
    const run = latest.run(() => pending.promise, use, fail);
    latest.cancel();
    pending.answer("after cancel");
    await run;
    expect(use).not.toHaveBeenCalled();
  });
});
