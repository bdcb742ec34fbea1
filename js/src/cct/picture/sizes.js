// The sizes a picture is laid out and drawn with: rows, levels, radii, labels, legends, and the
// thresholds above which a view is drawn differently (canvas, labels or a first picture later).
// Screen pixels unless said otherwise; a renderer's `layout` option overrides them (figures set
// their font size and legend placement).

export const DEFAULT_SIZES = {
  rowHeight: 28,
  minLevelWidth: 32, // screen pixels between depth levels when the whole tree is in view
  maxLevelWidth: 160,
  maxFitScale: 1.5,
  legendRoom: 190, // screen pixels left of the tree kept for the legends
  labelPx: 11,
  fontFamily: "", // of the labels, for measuring them (figures set theirs; "": the page's)
  rMin: 2.5,
  rMax: 9, // screen pixels, at any zoom
  margin: 24,
  labelRoom: 180, // screen pixels kept free right of the deepest nodes for their labels
  minRowPx: 14, // screen pixels between rows below which a first picture folds small subtrees
  fitMarksToRows: false, // marks shrink to the room of squeezed rows (figures: never overlapping)
  foldHotPath: false, // a first picture folds its hot path too rather than squeeze rows (small figures)
  canvasAbove: 4000, // drawn nodes above which backend "auto" paints on canvas instead of SVG
  maxLabelCandidates: 800, // a view has room for a few hundred labels; the largest nodes are tried
  labelsLaterAbove: 4000, // drawn nodes above which labels are placed in a task after the drawing's frame
  firstLabelsLaterAbove: 50, // table rows above which a view's first picture places its labels so too
  drawLaterAbove: 20_000, // table rows above which a new table is drawn in tasks of their own (later.js; also a table drawn whole of more than canvasAbove nodes)
  firstDrawLaterAbove: 500, // table rows above which a view's first table is drawn so too
  sliceMs: 30, // ms of a big first picture's layout per task (later.js; 0: a slice a task)
  aggregateFill: "#9e9e9e",
  // "left": a column left of the tree; "top": a row above it; "auto": on top in narrow views
  legendPosition: /** @type {"left" | "top" | "auto"} */ ("auto"),
  narrowBelow: 600, // screen pixels: narrower views put the legends on top and fold the toolbar
  legendScale: 1, // legends are drawn for 11 px text; figures scale them to their font size
  motionMs: 280, // navigation glides this long (0: jumps; none either when the user asks for reduced motion)
};
/** @typedef {typeof DEFAULT_SIZES} Sizes */
