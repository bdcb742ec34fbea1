// The k-th largest of many numbers: one pass, with the k largest so far in a binary min-heap.
// Why not a library's: d3-array's `quickselect` reorders an array through a comparator (a call
// per comparison: slower, cold, than a native sort of a Float64Array), and that sort of 10^5
// radii was 15–25 ms of one step of a big first picture. Here most values are at or under the
// heap's least, one comparison each.

/**
 * The `k`-th largest of `values` (k ≥ 1); -Infinity when there are fewer than `k`. NaN values are
 * passed over.
 * @param {ArrayLike<number>} values @param {number} k @returns {number}
 */
export function kthLargest(values, k) {
  const heap = new Float64Array(Math.max(1, k));
  let size = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (size < k) {
      if (Number.isNaN(v)) continue;
      let c = size++;
      // up while smaller than its parent
      while (c > 0) {
        const p = (c - 1) >> 1;
        if (heap[p] <= v) break;
        heap[c] = heap[p];
        c = p;
      }
      heap[c] = v;
    } else if (v > heap[0]) {
      // the least gives way: down while larger than its smaller child
      let c = 0;
      for (;;) {
        let child = 2 * c + 1;
        if (child >= k) break;
        if (child + 1 < k && heap[child + 1] < heap[child]) child++;
        if (heap[child] >= v) break;
        heap[c] = heap[child];
        c = child;
      }
      heap[c] = v;
    }
  }
  return size < k ? Number.NEGATIVE_INFINITY : heap[0];
}
