// SVG charts: secrets by guesses needed, and the share solved within N guesses.

import { num, plural } from "./dom.js";

const SVG = "http://www.w3.org/2000/svg";
function svgBox(W, H, title) {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", title);
  const add = (tag, attrs, text) => {
    const e = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    svg.append(e);
    return e;
  };
  return { svg, add };
}
// Round tick steps (1, 2 or 5 times a power of ten) so the axis reads 0, 500, 1,000, ...
function niceTicks(max, count = 4) {
  const raw = Math.max(1, max / count);
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw);
  const ticks = [];
  for (let v = 0; v <= max + step * 0.999; v += step) ticks.push(Math.round(v * 1e6) / 1e6);
  return ticks;
}
export const chartWidth = (node) => Math.max(300, Math.min(900, node.clientWidth || 640));

export function barChart(hist, title, width) {
  const W = width, H = 240, left = 56, bottom = 40, top = 26;
  const plotW = W - left - 10, plotH = H - top - bottom;
  const ticks = niceTicks(Math.max(1, ...hist));
  const maxVal = ticks[ticks.length - 1];
  const { svg, add } = svgBox(W, H, title);
  add("text", { x: 8, y: 16, "font-weight": "600" }, title);
  for (const v of ticks) {
    const y = top + plotH - (plotH * v) / maxVal;
    add("line", { x1: left, x2: W - 10, y1: y, y2: y, class: "grid" });
    add("text", { x: left - 6, y: y + 4, "text-anchor": "end" }, num(v));
  }
  const group = plotW / Math.max(1, hist.length);
  hist.forEach((v, d) => {
    const h = (plotH * v) / maxVal;
    const r = add("rect", { x: left + d * group + 3, y: top + plotH - h, width: Math.max(1, group - 6), height: h, class: "bar" });
    const tip = document.createElementNS(SVG, "title");
    tip.textContent = `${plural(v, "secret")} in ${plural(d + 1, "guess", "guesses")}`;
    r.append(tip);
    add("text", { x: left + d * group + group / 2, y: top + plotH + 14, "text-anchor": "middle" }, d + 1);
  });
  add("text", { x: left + plotW / 2, y: H - 6, "text-anchor": "middle" }, "guesses needed");
  return svg;
}

// Dashes as well as colours, so lines that run together (every strategy ends at 100%) stay apart.
const DASHES = ["none", "7 3", "2 3", "9 3 2 3", "4 4", "1 2", "12 4"];
export const LINE_COLOURS = ["#2f6f4f", "#c0392b", "#e8a33d", "#3b6ea5", "#7d4f9e", "#4f9e94", "#9e7d4f", "#555", "#d35fb7"];
// Share of secrets solved within n guesses, one line per way of playing: lines stay readable
// where seven sets of grouped bars did not.
export function cumulativeChart(series, title, width) {
  const W = width, H = 260, left = 46, bottom = 40, top = 26;
  const plotW = W - left - 14, plotH = H - top - bottom;
  const maxLen = Math.max(1, ...series.map((s) => s.hist.length));
  const { svg, add } = svgBox(W, H, title);
  add("text", { x: 8, y: 16, "font-weight": "600" }, title);
  for (const v of [0, 25, 50, 75, 100]) {
    const y = top + plotH - (plotH * v) / 100;
    add("line", { x1: left, x2: W - 14, y1: y, y2: y, class: "grid" });
    add("text", { x: left - 6, y: y + 4, "text-anchor": "end" }, `${v}%`);
  }
  const x = (n) => left + (plotW * (n - 1)) / Math.max(1, maxLen - 1);
  for (let n = 1; n <= maxLen; n++) add("text", { x: x(n), y: top + plotH + 14, "text-anchor": "middle" }, n);
  series.forEach((s, k) => {
    // Each line a little above or below the true height, so equal shares do not hide each other.
    const shift = (k - (series.length - 1) / 2) * 2;
    const total = s.hist.reduce((a, b) => a + b, 0) || 1;
    let acc = 0;
    const pts = [];
    for (let n = 1; n <= maxLen; n++) {
      acc += s.hist[n - 1] || 0;
      pts.push(`${x(n).toFixed(1)},${(top + plotH - (plotH * acc) / total + shift).toFixed(1)}`);
    }
    add("polyline", { points: pts.join(" "), fill: "none", stroke: LINE_COLOURS[k % LINE_COLOURS.length], "stroke-width": 2,
      "stroke-dasharray": DASHES[k % DASHES.length] });
  });
  add("text", { x: left + plotW / 2, y: H - 6, "text-anchor": "middle" }, "solved within this many guesses");
  return svg;
}
