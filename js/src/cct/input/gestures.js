// Gestures: the pointer (hover, click, double-click, rectangular brush) and the keyboard on the
// drawing. They turn DOM events into commands (state/commands.js: select, collapse, load more,
// cursor, undo…) handed to `dispatch`, read off the picture drawn now; what only shows (hover, the
// tooltip) goes to the pointer. Node ids in commands are full-tree ids.
import { NO_ID } from "../data/ids.js";

/** @typedef {import("../picture/view-tree.js").ViewItem} ViewItem */
/** @typedef {import("../data/ids.js").NodeId} NodeId */
/** @typedef {import("../data/ids.js").Row} Row */
/** @typedef {import("../data/ids.js").ItemKey} ItemKey */
/** @typedef {import("../picture/picture.js").Picture} Picture */
/**
 * What the pointer shows on the drawing, changing nothing (the painter).
 * @typedef {object} Pointer
 * @property {(key: ItemKey | null, event: MouseEvent | null) => void} hover the item under the
 *   pointer (its tooltip and label), null: none
 * @property {(event: MouseEvent) => void} moveTooltip
 * @property {(key: ItemKey) => { x: number, y: number }} screenOf where an item is on screen
 */
/**
 * @typedef {object} GestureContext
 * @property {HTMLElement} stage
 * @property {() => { svg: SVGSVGElement | null, nodeAt: (event: any) => ItemKey | null } | null} backend
 *   the drawing surface now
 * @property {() => Picture | null} picture the picture drawn now
 * @property {{ readonly selection: NodeId[], readonly cursor: NodeId | null }} store
 * @property {import("../state/commands.js").Dispatch} dispatch
 * @property {() => Pointer} pointer the painter (made after the gestures: it attaches them to its surfaces)
 * @property {{ focusSearch: () => void } | null} toolbar
 * @property {() => boolean} brushing whether the brush tool is on
 */

/** @param {GestureContext} ctx */
export function createGestures(ctx) {
  /** @type {ItemKey | null} */
  let hovered = null;
  /** @type {{ x0: number, y0: number, x1?: number, y1?: number, rect: HTMLElement, add: boolean } | null} */
  let brush = null;
  let brushed = false;

  /** @param {MouseEvent} event */
  const onStage = (event) => {
    const box = ctx.stage.getBoundingClientRect();
    return { x: event.clientX - box.left, y: event.clientY - box.top };
  };
  /** @param {Event} event */
  const keyAt = (event) => ctx.backend()?.nodeAt(event) ?? null;
  /** @param {Event} event */
  const itemAt = (event) => {
    const key = keyAt(event);
    return key === null ? null : (ctx.picture()?.tree.byKey.get(key) ?? null);
  };
  /** The full-tree id of a node item. @param {ViewItem} item */
  const idOf = (item) => ctx.picture()?.table.idOf(item.id) ?? NO_ID;
  /** @param {NodeId[]} ids */
  const select = (ids) => ctx.dispatch({ type: "select", ids });
  /** Opens a level-of-detail fold: the hidden children of its parent. @param {ViewItem} fold */
  const loadMore = (fold) => ctx.dispatch({ type: "loadMore", parent: fold.id >= 0 ? idOf(fold) : NO_ID });
  const real = (/** @type {ViewItem | null | undefined} */ it) => !!it && it.kind !== "aggregate";

  /** @param {MouseEvent} event */
  function onPointerMove(event) {
    if (brush) return brushMove(event, brush);
    const key = keyAt(event);
    if (key !== hovered) {
      hovered = key;
      ctx.pointer().hover(key, event);
    } else if (key !== null) ctx.pointer().moveTooltip(event);
  }

  /** @param {MouseEvent} event */
  function onClick(event) {
    if (brushed) {
      brushed = false;
      return;
    }
    const item = itemAt(event);
    if (!item) {
      if (ctx.store.selection.length && !event.defaultPrevented) select([]);
      return;
    }
    if (item.kind === "aggregate") {
      if (item.fold) loadMore(item);
      return;
    }
    const id = idOf(item);
    ctx.dispatch({ type: "cursor", id, reveal: false });
    const toggle = event.shiftKey || event.ctrlKey || event.metaKey;
    const next = new Set(toggle ? ctx.store.selection : []);
    if (toggle && next.has(id)) next.delete(id);
    else next.add(id);
    select([...next]);
  }

  /** @param {MouseEvent} event */
  function onDoubleClick(event) {
    // the view's own gesture: the notebook's double-click handling (which looks up the cell
    // under the pointer, a forced layout of the DOM just changed) has nothing to do here
    event.stopPropagation();
    const item = itemAt(event);
    if (item?.fold) loadMore(item);
    else if (item && real(item)) ctx.dispatch({ type: "collapse", id: idOf(item) });
  }

  /** @param {PointerEvent} event */
  function onPointerDown(event) {
    // a press in the drawing puts the keyboard in the tree (the zoom's handling keeps the
    // browser from doing it): the tree's keys work, the notebook's shortcuts stay out
    if (!event.button) ctx.stage.focus({ preventScroll: true });
    const backend = ctx.backend();
    if (!ctx.brushing() || event.button || !backend) return;
    const { x, y } = onStage(event);
    const rect = ctx.stage.ownerDocument.createElement("div");
    rect.className = "cct-brush";
    ctx.stage.appendChild(rect);
    brush = { x0: x, y0: y, rect, add: event.shiftKey };
    const surface = backend.svg;
    if (!surface) return;
    surface.setPointerCapture?.(event.pointerId);
    /** @param {PointerEvent} up */
    const done = (up) => {
      surface.removeEventListener("pointerup", done);
      finishBrush(up);
    };
    surface.addEventListener("pointerup", done);
  }

  /** @param {MouseEvent} event @param {NonNullable<typeof brush>} b */
  function brushMove(event, b) {
    const { x, y } = onStage(event);
    b.x1 = x;
    b.y1 = y;
    Object.assign(b.rect.style, {
      left: `${Math.min(b.x0, x)}px`,
      top: `${Math.min(b.y0, y)}px`,
      width: `${Math.abs(x - b.x0)}px`,
      height: `${Math.abs(y - b.y0)}px`,
    });
  }

  /** @param {MouseEvent} event */
  function finishBrush(event) {
    const b = brush;
    brush = null;
    const tree = ctx.picture()?.tree;
    if (!b || !tree) return;
    brushMove(event, b);
    b.rect.remove();
    const [x0, x1] = [Math.min(b.x0, b.x1 ?? b.x0), Math.max(b.x0, b.x1 ?? b.x0)];
    const [y0, y1] = [Math.min(b.y0, b.y1 ?? b.y0), Math.max(b.y0, b.y1 ?? b.y0)];
    if (x1 - x0 < 3 && y1 - y0 < 3) return; // a click, not a brush
    brushed = true;
    const next = new Set(b.add ? ctx.store.selection : []);
    for (const item of tree.items) {
      if (item.kind === "aggregate") continue;
      const p = ctx.pointer().screenOf(item.key);
      if (p.x >= x0 && p.x <= x1 && p.y >= y0 && p.y <= y1) next.add(idOf(item));
    }
    select([...next]);
  }

  /** @param {KeyboardEvent} event */
  function onKeyDown(event) {
    const pic = ctx.picture();
    if (!pic) return;
    const mod = event.ctrlKey || event.metaKey;
    const cursor = ctx.store.cursor;
    if (mod && (event.key === "z" || event.key === "Z")) ctx.dispatch({ type: event.shiftKey ? "redo" : "undo" });
    else if (mod && event.key === "y") ctx.dispatch({ type: "redo" });
    else if (event.key === "/") ctx.toolbar?.focusSearch();
    else if (event.key === "Escape") ctx.dispatch({ type: "escape" });
    else if (event.key.startsWith("Arrow")) moveCursor(pic, event.key);
    else if (event.key === "Enter" && cursor !== null) ctx.dispatch({ type: "collapse", id: cursor });
    else if (event.key === " " && cursor !== null) {
      const next = new Set(ctx.store.selection);
      if (next.has(cursor)) next.delete(cursor);
      else next.add(cursor);
      select([...next]);
    } else return;
    event.preventDefault();
  }

  /**
   * ← parent, → first child (or expand a collapsed node), ↑/↓ siblings.
   * @param {Picture} pic @param {string} key
   */
  function moveCursor(pic, key) {
    const { tree } = pic;
    const cursor = ctx.store.cursor;
    const current = cursor === null ? null : tree.byKey.get(pic.keyOf(cursor));
    /** @param {ViewItem | undefined} item @param {boolean} reveal */
    const cursorOn = (item, reveal) =>
      ctx.dispatch({ type: "cursor", id: item ? pic.table.idOf(item.id) : null, reveal });
    if (!current) return cursorOn(tree.items.find(real), false);
    /** @type {ViewItem | undefined} */
    let next;
    if (key === "ArrowLeft") next = tree.byKey.get(current.parentKey);
    else if (key === "ArrowRight") {
      if (current.kind === "collapsed") return ctx.dispatch({ type: "collapse", id: pic.table.idOf(current.id) });
      next = tree.items.find((it) => it.parentKey === current.key && real(it));
    } else {
      const siblings = tree.items.filter((it) => it.parentKey === current.parentKey && real(it));
      next = siblings[siblings.indexOf(current) + (key === "ArrowDown" ? 1 : -1)];
    }
    if (next && real(next)) cursorOn(next, true);
  }

  const listeners = /** @type {const} */ ([
    ["pointermove", onPointerMove],
    [
      "pointerleave",
      (/** @type {MouseEvent} */ event) => {
        hovered = null;
        ctx.pointer().hover(null, event);
      },
    ],
    ["pointerdown", onPointerDown],
    ["click", onClick],
    ["dblclick", onDoubleClick],
  ]);
  /** @type {SVGSVGElement | null} */
  let surface = null;
  ctx.stage.addEventListener("keydown", onKeyDown);

  return {
    /** Listens on a backend's surface (the old one, if any, is let go). @param {SVGSVGElement} svg */
    attach(svg) {
      this.detach();
      surface = svg;
      for (const [type, fn] of listeners) svg.addEventListener(type, /** @type {EventListener} */ (fn));
    },
    detach() {
      if (surface)
        for (const [type, fn] of listeners) surface.removeEventListener(type, /** @type {EventListener} */ (fn));
      surface = null;
    },
    /** What was under the pointer may be gone or of another kind after a new layout. */
    forgetHover() {
      hovered = null;
    },
    destroy() {
      this.detach();
      ctx.stage.removeEventListener("keydown", onKeyDown);
    },
  };
}
