// Statistics: the daily puzzle's results kept in this browser, per game, and a file to carry
// them to another browser. The engine reads and merges the file, so a file it refuses leaves
// the statistics as they were.

import { $, el, setStatus, plural } from "../lib/dom.js";
import { recordText, statistics, statsView } from "../lib/daily.js";

export const stats = {
  id: "stats",
  title: "Statistics",
  markup: `
  <h2 id="stats-title">Your daily puzzle statistics</h2>
  <p class="info">They are kept in this browser only. Save them to a file, then load the file in another browser to take them with you.</p>
  <div id="stats-out"></div>
  <div class="row card">
    <button id="stats-export" type="button">Save to a file</button>
    <label class="file" for="stats-import">Load from a file</label>
    <input id="stats-import" type="file" accept=".json,application/json">
  </div>
  <p id="stats-status" class="status" role="status" aria-live="polite"></p>
`,
  init() {
    $("#stats-export").addEventListener("click", () => this.save());
    $("#stats-import").addEventListener("change", (e) => this.load(e.target));
  },
  enter() { this.show(); },
  async show(change) {
    const out = $("#stats-out");
    try {
      const r = await statistics(change);
      out.replaceChildren(...r.stats.map(statsView));
      out.dataset.ready = "1";
      return r;
    } catch (err) {
      if (change) throw err;
      out.replaceChildren(el("p", { class: "status error", text: err.message }));
      return null;
    }
  },
  save() {
    const url = URL.createObjectURL(new Blob([recordText() || '{"version": 1, "results": []}'], { type: "application/json" }));
    const a = el("a", { href: url, download: "moo-daily-statistics.json" });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10000);
    setStatus($("#stats-status"), "Saved as moo-daily-statistics.json in your downloads.");
  },
  async load(input) {
    const file = input.files[0];
    if (!file) return;
    const status = $("#stats-status");
    try {
      const r = await this.show({ import: await file.text() });
      setStatus(status, r.imported ? `Loaded ${plural(r.imported, "new day")} from ${file.name}.` : `${file.name} holds no day that is not here already.`);
    } catch (err) {
      setStatus(status, `${file.name} could not be loaded: ${err.message}. Your statistics are unchanged.`, "error");
    }
    input.value = "";
  },
};
