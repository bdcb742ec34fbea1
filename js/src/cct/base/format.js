// Number formatting for tooltips and legends.
import { format } from "d3-format";

const si = format(".3~s");
const plain = format(".3~r");
const exponent = format(".2~e"); // 3 significant digits, as ".3~s"
// d3's SI prefixes end at yocto (1e-24) and yotta (1e24); beyond them "s" would print every digit
const SI_LOW = 1e-24;
const SI_HIGH = 999.5e24;

/** SI-formatted value ("1.23M", "4.5µ"; "1.8e+308" beyond the SI prefixes); "missing" for NaN.
 * @param {number} v */
export function formatValue(v) {
  if (Number.isNaN(v)) return "missing";
  if (!Number.isFinite(v)) return v > 0 ? "∞" : "−∞";
  if (v === 0) return "0";
  const a = Math.abs(v);
  if (a >= 1e-3 && a < 1e3) return plain(v).replace("-", "−");
  if (a < SI_LOW || a >= SI_HIGH) return exponent(v).replace(/-/g, "−");
  return si(v).replace("-", "−");
}
