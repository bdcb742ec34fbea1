// One view, owned whole: its state (the store), its table and the picture drawn of it, its screen
// (the sizes, the frame the camera fits into, the camera, the chrome, the toolbar) and the painter
// that draws the picture there. The renderer (view/renderer.js) makes one per view and passes it
// whole — to the painter and its parts, to the renderer's API — instead of a bag of its parts.

import { metricByName } from "../data/decode.js";
import { NO_KEY } from "../data/ids.js";
import { picture } from "../picture/picture.js";
import { LEGEND_BAND } from "./legend/view-legends.js";
import { createPainter } from "./painter.js";

/** @typedef {import("../../contract.js").ViewState} ViewState */
/** @typedef {import("../data/decode.js").Table} Table */
/** @typedef {import("../data/ids.js").NodeId} NodeId */
/** @typedef {import("../data/ids.js").ItemKey} ItemKey */
/** @typedef {import("../picture/picture.js").Picture} Picture */
/** @typedef {import("../picture/sizes.js").Sizes} Sizes */

/**
 * What a view is made of: its sizes, its store, its screen.
 * @typedef {object} ViewParts
 * @property {Sizes} D the sizes (picture/sizes.js), with the view's overrides
 * @property {import("../state/store.js").Store} store
 * @property {import("../input/camera.js").Camera} camera
 * @property {ReturnType<typeof import("./chrome.js").createChrome>} chrome
 * @property {ReturnType<typeof import("../input/toolbar.js").createToolbar> | null} toolbar
 * @property {HTMLElement} root the renderer's outermost element (toolbar, status line and stage)
 * @property {{ legendsOnTop: boolean, topRoom: number }} frame the frame the camera fits into
 *   (where the legends are: set here, from `width`)
 * @property {number} width the view's first width
 */

/**
 * What the painter asks of the rest of the renderer.
 * @typedef {object} PainterHooks
 * @property {(svg: SVGSVGElement) => void} onBackend a new drawing surface (gestures and zoom move to it)
 * @property {import("../state/commands.js").Dispatch} dispatch a breadcrumb click focuses its node
 * @property {((node: NodeId, metric: string) => Promise<import("./tooltip/tooltip-content.js").Spread>) | null} [onSpread]
 *   a node's spread over its rows, asked of Python on hover (null: no one to ask)
 */

export class View {
  /** @param {ViewParts} parts @param {PainterHooks} hooks */
  constructor({ D, store, camera, chrome, toolbar, root, frame, width }, hooks) {
    this.D = D;
    this.store = store;
    this.camera = camera;
    this.chrome = chrome;
    this.toolbar = toolbar;
    this.root = root;
    this.frame = frame;
    this.doc = chrome.stage.ownerDocument;
    /** @type {Table | null} the table the view has (drawn, or about to be) */
    this.table = null;
    /** @type {Picture | null} the picture drawn now (null: none of this table yet) */
    this.shown = null;
    /** @type {import("../picture/picture.js").PictureSizes} the sizes pictures are made with, with
     * the room their levels were last spread over (at a new structure, and at a new size unless
     * the user moved the view) */
    this.sizes = { ...D, room: null };
    /** @type {Set<NodeId>} nodes the last fold-to-fit collapsed (for the status line) */
    this.fitted = new Set();
    this.setLegendsOnTop(this.onTop(width));
    // last: the painter reads the view (and draws its first, empty, surface)
    this.painter = createPainter(this, hooks);
  }

  /** The view state now. @returns {ViewState} */
  get state() {
    return this.store.view;
  }
  /** The legends are a row on top (else a column on the left). */
  get legendsOnTop() {
    return this.frame.legendsOnTop;
  }
  /** The picture of the table in the view state now (not drawn yet, maybe). @returns {Picture | null} */
  current() {
    return this.table ? picture(this.table, this.state, this.sizes) : null;
  }
  /** A picture is drawn, with a metric to colour by. */
  ready() {
    return !!this.shown && !!this.state.colorBy;
  }
  /** The picture drawn, once there is a metric to colour it by (else null). */
  drawable() {
    return this.state.colorBy ? this.shown : null;
  }
  /** Pictures from now on spread their levels over `room`. @param {{ width: number, height: number }} room */
  spreadOver(room) {
    const was = this.sizes.room;
    if (was?.width !== room.width || was?.height !== room.height) this.sizes = { ...this.D, room };
  }
  /** The item key of a drawn node id, -1 if the table does not have it. @param {NodeId} id @returns {ItemKey} */
  keyOf(id) {
    return this.shown?.keyOf(id) ?? NO_KEY;
  }
  /** Where item `key` of the picture drawn is on screen. @param {number} key */
  screenOf(key) {
    const layout = this.shown?.layout;
    return { x: this.camera.toScreenX(layout?.x[key] ?? 0), y: this.camera.toScreenY(layout?.y[key] ?? 0) };
  }
  /** Refuses a colour or size metric the table does not have. @param {Record<string, unknown>} partial */
  checkMetrics(partial) {
    for (const key of /** @type {const} */ (["colorBy", "sizeBy"])) {
      const name = partial[key];
      if (this.table && typeof name === "string" && name && !metricByName(this.table, name)) {
        throw new RangeError(`unknown ${key === "colorBy" ? "colour" : "size"} metric ${JSON.stringify(name)}`);
      }
    }
  }
  /** Whether the legends go on top in a view `width` pixels wide. @param {number} width */
  onTop(width) {
    const { legendPosition, narrowBelow } = this.D;
    return legendPosition === "top" || (legendPosition === "auto" && width < narrowBelow);
  }
  /** Puts the legends on top (or on the left), with the room they take. @param {boolean} top */
  setLegendsOnTop(top) {
    this.frame.legendsOnTop = top;
    this.frame.topRoom = top ? LEGEND_BAND * this.D.legendScale : 0;
  }
}
