// Benchmark: every way of playing against every secret.

import { $, el, setStatus, num, plural } from "../lib/dom.js";
import { api } from "../lib/api.js";
import { plainName } from "../lib/words.js";
import { saveState } from "../lib/state.js";
import { rulesForm, STRATEGIES } from "../lib/forms.js";
import { chartWidth, cumulativeChart, LINE_COLOURS } from "../lib/charts.js";

export const bench = {
  id: "bench",
  title: "Benchmark",
  markup: `
  <h2 id="bench-title">Benchmark: which way of playing needs fewest guesses?</h2>
  <p class="info">Each way of playing plays a game against every possible secret; the table says how many
    guesses it needed on average and at worst.</p>
  <details class="settings" open><summary>Game</summary><form id="bench-rules" class="rules card"></form></details>
  <div class="row"><button id="bench-run" type="button">Run the benchmark</button></div>
  <p id="bench-status" class="status" role="status" aria-live="polite"></p>
  <p id="bench-secrets" class="info"></p>
  <div class="scroll">
    <table id="bench-table" class="history" hidden>
      <thead><tr><th>Way of playing</th><th>Average</th><th>Worst</th><th>Total</th><th>Time</th></tr></thead>
      <tbody></tbody>
    </table>
  </div>
  <div id="bench-chart" class="chart"></div>
`,
  charts: {},
  init() {
    this.rules = rulesForm($("#bench-rules"), () => {});
    $("#bench-run").addEventListener("click", () => this.run());
  },
  enter(state, entering) { if (entering) this.rules.load(state); },
  // One request per way of playing, so each gets the server's whole time limit and the table
  // grows as results arrive.
  async run() {
    const status = $("#bench-status");
    const rules = this.rules.body();
    saveState("bench", this.rules.save(new URLSearchParams()));
    const done = [];
    const failed = [];
    delete status.dataset.done;
    delete this.charts.bench;
    $("#bench-chart").replaceChildren();
    $("#bench-secrets").textContent = "";
    $("#bench-run").disabled = true;
    $("#bench-table tbody").replaceChildren();
    $("#bench-table").hidden = false;
    for (const name of STRATEGIES.map((x) => x.name)) {
      setStatus(status, `Playing every secret with “${plainName(name)}”…`);
      let r;
      try {
        const report = await api("POST", "/api/bench", Object.assign({ strategies: [name] }, rules));
        r = report.results[0];
        $("#bench-secrets").textContent = `Each way of playing plays all ${num(report.space_size)} secrets of ${report.description}.`;
      } catch (err) {
        // The names come from the engine's own list, so a refusal is about the rules: say it
        // once; a cancel stops the whole run.
        if (err.code === "invalid" || err.code === "space_too_large" || err.code === "cancelled") {
          setStatus(status, err.message, "error");
          status.dataset.done = "1";
          $("#bench-table").hidden = true;
          $("#bench-run").disabled = false;
          return;
        }
        r = { strategy: name, error: err.message };
      }
      if (r.error) failed.push(r); else done.push(r);
      this.table(done, failed);
      const shown = done.filter((x) => x.max <= 20);
      this.charts.bench = () => $("#bench-chart").replaceChildren(
        cumulativeChart(shown.map((x) => ({ name: plainName(x.strategy), hist: x.histogram })), "Share of secrets solved within N guesses", chartWidth($("#bench-chart"))),
        el("ul", { class: "legend" }, ...shown.map((x, k) => el("li", {},
          el("span", { class: "swatch", style: `background:${LINE_COLOURS[k % LINE_COLOURS.length]}` }), plainName(x.strategy)))));
      this.charts.bench();
    }
    const hidden = done.filter((x) => x.max > 20).map((x) => plainName(x.strategy));
    setStatus(status, `${plural(done.length, "way")} of playing measured` +
      (failed.length ? `, ${failed.length} failed` : "") +
      (hidden.length ? `; not in the chart, needing over 20 guesses: ${hidden.join(", ")}` : "") + ".");
    status.dataset.done = "1";
    $("#bench-run").disabled = false;
  },
  // Fewest guesses on average first; the best row marked.
  table(done, failed) {
    const sorted = done.slice().sort((a, b) => a.average - b.average || a.max - b.max);
    const rows = sorted.map((r, i) => el("tr", { "data-strategy": r.strategy, class: i === 0 ? "best" : "" },
      el("th", { scope: "row", title: r.strategy }, plainName(r.strategy), i === 0 ? el("span", { class: "badge", text: "best" }) : null),
      el("td", { text: r.average.toFixed(4) }), el("td", { text: num(r.max) }),
      el("td", { text: num(r.total) + (r.gave_up ? ` (${num(r.gave_up)} unsolved)` : "") }),
      el("td", { text: `${num(Math.round(r.seconds * 1000))} ms` })));
    for (const r of failed) {
      rows.push(el("tr", { "data-strategy": r.strategy }, el("th", { scope: "row", text: plainName(r.strategy) }), el("td", { colspan: 4, class: "error", text: r.error })));
    }
    $("#bench-table tbody").replaceChildren(...rows);
  },
};
