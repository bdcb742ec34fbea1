// Builds payloads in the format of cctviz/view/payload.py, so tests go through the real decoder.

const encoder = new TextEncoder();

function column(values, dtype) {
  const Ctor = { int32: Int32Array, uint32: Uint32Array, float64: Float64Array }[dtype];
  const arr = Ctor.from(values);
  return { dtype, length: arr.length, buffer: new DataView(arr.buffer) };
}

function strings(values) {
  const encoded = values.map((s) => encoder.encode(s));
  const offsets = [0];
  for (const e of encoded) offsets.push(offsets[offsets.length - 1] + e.length);
  const blob = new Uint8Array(offsets[offsets.length - 1]);
  encoded.forEach((e, i) => {
    blob.set(e, offsets[i]);
  });
  return { count: values.length, blob: new DataView(blob.buffer), offsets: column(offsets, "uint32") };
}

/** Python's share_base for a single profile's metric. */
function defaultShare(name, kinds, partners) {
  if (kinds[name] === "inclusive") return name;
  const partner = partners[name];
  return kinds[name] === "exclusive" && partner && kinds[partner] === "inclusive" ? partner : null;
}

/**
 * @param {{ parent: number[], names: string[], metrics: Record<string, number[]>,
 *   kinds?: Record<string, string>, partners?: Record<string, string>, reducer?: string,
 *   types?: string[], shares?: Record<string, string | null> }} spec `types`: each node's
 *   (default: all "function"); `shares`: each metric's share base as Python sends it
 *   (share_base); by default Python's rule for a single profile: an inclusive metric's own, an
 *   exclusive one's inclusive partner's
 */
export function payload({
  parent,
  names,
  metrics,
  kinds = {},
  partners = {},
  shares = {},
  reducer = null,
  nodeId = null,
  folded = null,
  total = null,
  tree = undefined,
  callers = null,
  types = null,
}) {
  const depth = parent.map(function depthOf(p) {
    return p < 0 ? 0 : 1 + depthOf(parent[p]);
  });
  const uniqueNames = [...new Set(names)];
  const codeOf = new Map(uniqueNames.map((n, i) => [n, i])); // (indexOf: quadratic in the names)
  return {
    version: 1,
    size: parent.length,
    parent: column(parent, "int32"),
    depth: column(depth, "int32"),
    name: column(
      names.map((n) => /** @type {number} */ (codeOf.get(n))),
      "int32",
    ),
    names: strings(uniqueNames),
    type: column(types ? types.map((t) => [...new Set(types)].indexOf(t)) : parent.map(() => 0), "int32"),
    types: strings(types ? [...new Set(types)] : ["function"]),
    metrics: Object.entries(metrics).map(([name, values]) => ({
      name,
      kind: kinds[name] ?? "other",
      partner: partners[name] ?? null,
      share: name in shares ? shares[name] : defaultShare(name, kinds, partners),
      values: column(values, "float64"),
    })),
    reducer,
    reduced_over: reducer ? ["rank"] : [],
    extra_edges: 0,
    cycle_edges: 0,
    total: total ?? parent.length,
    ...(tree === undefined ? {} : { tree }),
    ...(callers
      ? {
          callers: {
            caller: column(
              callers.map((e) => e[0]),
              "int32",
            ),
            callee: column(
              callers.map((e) => e[1]),
              "int32",
            ),
          },
        }
      : {}),
    ...(nodeId ? { node_id: column(nodeId, "int32"), folded: column(folded, "int32") } : {}),
  };
}

/**
 * What Python sends for a 1,000-node tree under level of detail: main (id 0) → solve (id 4) →
 * kernel (id 9), and two fold rows: "990 more" under main, "5 more" under solve.
 */
export function lodTree() {
  return payload({
    parent: [-1, 0, 1, 1, 0],
    names: ["main", "solve", "kernel", "5 more", "990 more"],
    metrics: { time: [1, 2, 50, 7, 300], "time (inc)": [360, 59, 50, 7, 300] },
    kinds: { time: "exclusive", "time (inc)": "inclusive" },
    partners: { time: "time (inc)", "time (inc)": "time" },
    nodeId: [0, 4, 9, -1, -1],
    folded: [0, 0, 0, 5, 990],
    total: 1000,
  });
}

/** The same tree after the fold under main was opened: a leaf `init` (id 1) now comes first. */
export function expandedTree() {
  return payload({
    parent: [-1, 0, 0, 2, 2, 0],
    names: ["main", "init", "solve", "kernel", "5 more", "989 more"],
    metrics: { time: [1, 1, 2, 50, 7, 299], "time (inc)": [360, 1, 59, 50, 7, 299] },
    kinds: { time: "exclusive", "time (inc)": "inclusive" },
    partners: { time: "time (inc)", "time (inc)": "time" },
    nodeId: [0, 1, 4, 9, -1, -1],
    folded: [0, 0, 0, 0, 5, 989],
    total: 1000,
  });
}

/** main → (solve → (kernel_a, kernel_b), io), plus a second root `init`. */
export function smallTree() {
  return payload({
    parent: [-1, 0, 1, 1, 0, -1],
    names: ["main", "solve", "kernel_a", "kernel_b", "io", "init"],
    metrics: {
      time: [1, 2, 30, 10, 5, Number.NaN],
      "time (inc)": [48, 42, 30, 10, 5, 0],
    },
    kinds: { time: "exclusive", "time (inc)": "inclusive" },
    partners: { time: "time (inc)", "time (inc)": "time" },
    reducer: "mean",
  });
}

/** A random tree of `n` nodes (parents precede children), deterministic for a seed. */
export function randomTree(n, seed = 1) {
  let s = seed;
  const rand = () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
  const parent = [-1];
  for (let i = 1; i < n; i++) parent.push(Math.floor(rand() * i));
  return payload({
    parent,
    names: parent.map((_, i) => `f${i}`),
    metrics: { time: parent.map(() => rand() * 100), "time (inc)": parent.map(() => rand() * 1000) },
  });
}

/** A payload from a real profile exported by scripts/make_js_fixtures.py (NaN stored as null). */
export async function realProfile(name) {
  const { readFile } = await import("node:fs/promises");
  const { resolve } = await import("node:path");
  // under jsdom, import.meta.url is not a file URL: resolve from the working directory
  const cwd = process.cwd();
  const file = resolve(cwd, cwd.endsWith("js") ? "test/data" : "js/test/data", `${name}.json`);
  const doc = JSON.parse(await readFile(file, "utf-8"));
  const metrics = Object.fromEntries(
    Object.entries(doc.metrics).map(([k, v]) => [k, v.map((x) => (x === null ? Number.NaN : x))]),
  );
  return payload({ parent: doc.parent, names: doc.names, metrics, kinds: doc.kinds, partners: doc.partners });
}
