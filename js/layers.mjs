// The front end's folders, lowest first: a module imports only from its own folder and from the
// folders before it (type imports in JSDoc included). The one statement of that order: the
// layering test (js/test/layers.test.js) checks every import against it, and the module map
// (docs/modules.md, scripts/module_map.py) lists the folders in it. A folder's sub-folders (e.g.
// cct/draw/canvas) are in its layer: they import from each other and from the layers below.
export const LAYERS = [
  // the contract shared with Python (cctviz/contract.json) and the view state's defaults
  { folder: "contract.js", says: "the contract with Python: message kinds, view state and its defaults" },
  { folder: "cct/base", says: "leaf utilities: creating elements, formatting numbers, untrusted text" },
  { folder: "cct/data", says: "the node table: decoding Python's payload, checking node ids" },
  {
    folder: "cct/picture",
    says: "pure: what is drawn for a table and a view state (view tree, layout, scene, labels, shares)",
  },
  {
    folder: "cct/state",
    says: "what the user and Python change: the store, its history, the tree changes, the commands, search",
  },
  { folder: "cct/input", says: "the toolbar, the pointer and keyboard gestures, the camera (zoom and pan)" },
  {
    folder: "cct/draw",
    says: "pixels: the view and its painter; in sub-folders the SVG and canvas backends, labels, legends, tooltip",
  },
  { folder: "cct/pane", says: "the table pane beside the tree" },
  { folder: "cct/strip", says: "an ensemble's profile strip: one point per profile, brushed to filter" },
  { folder: "cct/trend", says: "an ensemble's trend pane: a node's and its children's series, small multiples" },
  { folder: "cct/view", says: "the renderer: the interactive view, wiring state, picture, input and drawing" },
  { folder: "cct/figure", says: "paper figures (SVG, PNG) drawn by the renderer" },
  { folder: "widget", says: "the anywidget binding: the model, the comm, the level of detail" },
  { folder: "figure-page.js", says: "the headless figure page of cctviz.export" },
  { folder: "index.js", says: "the bundle's entry points" },
];
