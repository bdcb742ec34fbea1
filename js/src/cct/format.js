// Number formatting for tooltips and legends.
import { format } from "d3-format";

const si = format(".3~s");
const plain = format(".3~r");

/** SI-formatted value ("1.23M", "4.5µ"); "missing" for NaN. @param {number} v */
export function formatValue(v) {
  if (Number.isNaN(v)) return "missing";
  if (!Number.isFinite(v)) return v > 0 ? "∞" : "−∞";
  if (v === 0) return "0";
  const a = Math.abs(v);
  if (a >= 1e-3 && a < 1e3) return plain(v).replace("-", "−");
  return si(v).replace("-", "−");
}
