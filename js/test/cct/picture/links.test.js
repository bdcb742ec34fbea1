// Links as columns (js/src/cct/picture/links.js): what goes in comes out, in order, as long as
// what was made (not the room made for it).
import { expect, test } from "vitest";
import {
  allLinks,
  linkObjects,
  linkRoom,
  linksOf,
  NO_LINKS,
  pushLink,
  trimLinks,
} from "../../../src/cct/picture/links.js";

test("links made in a room are trimmed to those made, their columns views of the room's", () => {
  const room = linkRoom(5);
  pushLink(room, 0.5, 1.25, 10, 20, 3);
  pushLink(room, -2, 0, 7.75, -1.5, -1);
  const links = trimLinks(room);
  expect(links.length).toBe(2);
  for (const column of [links.x0, links.y0, links.x1, links.y1, links.p]) expect(column.length).toBe(2);
  expect(links.x0.buffer).toBe(room.x0.buffer); // no copy
  expect(linkObjects(links)).toEqual([
    { x0: 0.5, y0: 1.25, x1: 10, y1: 20, p: 3 },
    { x0: -2, y0: 0, x1: 7.75, y1: -1.5 }, // no parent named: no p
  ]);
});

test("links from objects and back, all or some by index", () => {
  const list = [
    { x0: 1, y0: 2, x1: 3, y1: 4, p: 0 },
    { x0: 5, y0: 6, x1: 7, y1: 8 },
    { x0: 9.5, y0: 10, x1: 11, y1: 12, p: 7 },
  ];
  const links = linksOf(list);
  expect(links.length).toBe(3);
  expect(Array.from(links.p)).toEqual([0, -1, 7]);
  expect(linkObjects(links)).toEqual(list);
  expect(linkObjects(links, Int32Array.of(2, 0))).toEqual([list[2], list[0]]);
  expect(Array.from(allLinks(links))).toEqual([0, 1, 2]);
  expect(NO_LINKS.length).toBe(0);
  expect(allLinks(NO_LINKS)).toHaveLength(0);
});
