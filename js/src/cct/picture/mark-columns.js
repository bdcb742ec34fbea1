// A scene's marks as columns: typed arrays with an entry per mark (in the tree's order), each read
// through a small object (`Mark`, two fields) with the properties a mark has always had.
//
// Why not an object literal per mark: V8 keeps a number-valued field that is not a small integer
// in a box of its own, so a mark held three boxes (x, y, r) beside its 13 fields. At 10^5 marks
// that was 4·10^5 objects made during the first picture's tasks and copied by each young
// collection they survived (25–34 ms each, landing inside 30–40 ms tasks). The columns are not
// copied (typed arrays' storage is outside the collected heap) and the marks are ~5× smaller.

/** @typedef {import("../data/ids.js").NodeId} NodeId */
/** @typedef {import("../data/ids.js").ItemKey} ItemKey */
/** @typedef {"data-id" | "data-fold" | "data-aggregate"} MarkAttr */
/** @typedef {"circle" | "triangle" | "diamond" | "square" | "hexagon"} MarkShape */

/** @type {readonly MarkAttr[]} */
const ATTRS = ["data-id", "data-fold", "data-aggregate"];
/** @type {readonly MarkShape[]} */
const SHAPES = ["circle", "triangle", "diamond", "square", "hexagon"];
const NEGATIVE = 1;
const NO_SIZE = 2;
const SMALL = 4;
/** a node's mark (an aggregate's or a fold's has no `noSize` or `small`: undefined) */
const NODE = 8;

/**
 * One mark's fields, as computeMarkSteps gives them.
 * @typedef {object} MarkFields
 * @property {ItemKey} key @property {number} x @property {number} y @property {NodeId} id
 * @property {MarkAttr} attr @property {NodeId} ref @property {number} r
 * @property {string | null} fill @property {boolean} negative @property {boolean | undefined} noSize
 * @property {boolean | undefined} small @property {MarkShape} shape @property {string} label
 */

/** The columns of `n` marks. */
export class MarkColumns {
  /** @param {number} n */
  constructor(n) {
    this.key = new Int32Array(n);
    this.x = new Float64Array(n);
    this.y = new Float64Array(n);
    this.r = new Float64Array(n);
    this.drawnAt = new Float64Array(n);
    this.id = new Float64Array(n);
    this.ref = new Float64Array(n);
    this.attr = new Uint8Array(n);
    this.shape = new Uint8Array(n);
    this.flags = new Uint8Array(n);
    /** @type {(string | null)[]} colours are shared strings: an array of them boxes nothing */
    this.fill = new Array(n);
    /** @type {string[]} */
    this.label = new Array(n);
  }

  /**
   * Writes mark `i` and returns its object.
   * @param {number} i @param {MarkFields} m @returns {Mark}
   */
  set(i, m) {
    this.key[i] = m.key;
    this.x[i] = m.x;
    this.y[i] = m.y;
    this.r[i] = m.r;
    this.drawnAt[i] = Number.NaN; // not shrunk by a figure yet
    this.id[i] = m.id;
    this.ref[i] = m.ref;
    this.attr[i] = ATTRS.indexOf(m.attr);
    this.shape[i] = SHAPES.indexOf(m.shape);
    this.flags[i] =
      (m.negative ? NEGATIVE : 0) |
      (m.noSize ? NO_SIZE : 0) |
      (m.small ? SMALL : 0) |
      (m.noSize === undefined ? 0 : NODE);
    this.fill[i] = m.fill;
    this.label[i] = m.label;
    return new Mark(this, i);
  }
}

/** One mark: its fields read from (and the figures' fitting written to) its columns. */
export class Mark {
  /** @param {MarkColumns} c @param {number} i */
  constructor(c, i) {
    this.c = c;
    this.i = i;
  }
  /** @returns {ItemKey} */
  get key() {
    return /** @type {ItemKey} */ (this.c.key[this.i]);
  }
  get x() {
    return this.c.x[this.i];
  }
  set x(v) {
    this.c.x[this.i] = v;
  }
  get y() {
    return this.c.y[this.i];
  }
  set y(v) {
    this.c.y[this.i] = v;
  }
  /** layout units */
  get r() {
    return this.c.r[this.i];
  }
  set r(v) {
    this.c.r[this.i] = v;
  }
  /** r before a figure shrank it to its row (mark-room.js); undefined while it has not */
  get drawnAt() {
    const v = this.c.drawnAt[this.i];
    return Number.isNaN(v) ? undefined : v;
  }
  set drawnAt(v) {
    this.c.drawnAt[this.i] = v ?? Number.NaN;
  }
  /** @returns {NodeId} the full-tree node id; -1 (NO_ID) for an aggregate or a fold */
  get id() {
    return /** @type {NodeId} */ (this.c.id[this.i]);
  }
  /** @returns {MarkAttr} how the DOM names it */
  get attr() {
    return /** @type {MarkAttr} */ (ATTRS[this.c.attr[this.i]]);
  }
  /** @returns {NodeId} the attribute's value: the node id, or the parent's id (-1: top level) */
  get ref() {
    return /** @type {NodeId} */ (this.c.ref[this.i]);
  }
  /** @returns {string | null} null: missing value (hatched) */
  get fill() {
    return /** @type {string | null} */ (this.c.fill[this.i]);
  }
  get negative() {
    return (this.c.flags[this.i] & NEGATIVE) !== 0;
  }
  /** @returns {boolean | undefined} the size metric has no value here (drawn smallest, dotted) */
  get noSize() {
    const f = this.c.flags[this.i];
    return f & NODE ? (f & NO_SIZE) !== 0 : undefined;
  }
  /** @returns {boolean | undefined} too small to judge (judge.js): grey, outside the colour scale */
  get small() {
    const f = this.c.flags[this.i];
    return f & NODE ? (f & SMALL) !== 0 : undefined;
  }
  /** @returns {MarkShape} square: a compare view's context only in the first run, hexagon: only in the second */
  get shape() {
    return /** @type {MarkShape} */ (SHAPES[this.c.shape[this.i]]);
  }
  /** @returns {string} accessible name */
  get label() {
    return /** @type {string} */ (this.c.label[this.i]);
  }
}
