// Explorer: a decision tree, checked and counted on the server.

import { $, el, setStatus, num, plural } from "../lib/dom.js";
import { api } from "../lib/api.js";
import { answerView, answerWords, plainName } from "../lib/words.js";
import { saveState } from "../lib/state.js";
import { rulesForm, STRATEGIES } from "../lib/forms.js";
import { barChart, chartWidth } from "../lib/charts.js";

export const explorer = {
  id: "explorer",
  title: "Explorer",
  markup: `
  <h2 id="explorer-title">Explorer: every game of a way of playing</h2>
  <p class="info">A way of playing that always answers the same way is a tree: the first guess, then one
    branch per answer. Browse it branch by branch; the chart shows how many guesses the secrets under
    the branch need.</p>
  <details class="settings" open><summary>Game</summary><form id="tree-rules" class="rules card"></form></details>
  <div class="row card">
    <label for="tree-select">Way of playing</label>
    <select id="tree-select"></select>
    <button id="tree-load" type="button">Show the tree</button>
    <label for="tree-file" class="file">or open a tree file <input id="tree-file" type="file" accept=".json,application/json"></label>
  </div>
  <p id="tree-status" class="status" role="status" aria-live="polite"></p>
  <div id="tree-view" hidden>
    <p id="tree-summary" class="info"></p>
    <nav id="tree-path" class="path" aria-label="Path from the first guess"></nav>
    <p id="node-info" class="info"></p>
    <div id="tree-histogram" class="chart"></div>
    <div class="scroll">
      <table id="tree-children" class="history">
        <thead><tr><th>Answer</th><th>Codes</th><th>Average</th><th>Worst</th><th>Next guess</th></tr></thead>
        <tbody></tbody>
      </table>
    </div>
  </div>
`,
  view: null,
  path: [],
  charts: {},
  init() {
    $("#tree-load").addEventListener("click", () => this.loadSelected());
    $("#tree-file").addEventListener("change", (e) => this.loadFile(e.target.files[0]));
    // A tree of other rules must not stay on show as if it were this game's.
    this.rules = rulesForm($("#tree-rules"), () => this.stale());
    for (const s of STRATEGIES.filter((x) => x.deterministic)) {
      $("#tree-select").append(el("option", { value: s.name, text: plainName(s.name), title: s.about }));
    }
    if (STRATEGIES.some((s) => s.name === "optimal" && s.deterministic)) $("#tree-select").value = "optimal";
    $("#tree-select").addEventListener("change", () => this.stale());
  },
  enter(state, entering) {
    if (!entering) return;
    this.rules.load(state);
    if (state.get("s") && [...$("#tree-select").options].some((o) => o.value === state.get("s"))) $("#tree-select").value = state.get("s");
  },
  stale() {
    if (!this.view) return;
    this.clear();
    setStatus($("#tree-status"), "The choice changed: choose Show the tree to see it.");
  },
  clear() {
    this.view = null;
    this.path = [];
    $("#tree-view").hidden = true;
    delete this.charts.tree;
  },
  async loadSelected() {
    const name = $("#tree-select").value;
    if (!name) return;
    const label = `${plainName(name)}, ${this.rules.label()}`;
    this.clear();
    setStatus($("#tree-status"), `Working out every game of ${label}…`);
    const p = this.rules.save(new URLSearchParams());
    p.set("s", name);
    saveState("explorer", p);
    try {
      this.show(await api("POST", "/api/trees/view", Object.assign(this.rules.body(), { strategy: name })), label);
    } catch (err) { this.fail(err.message); }
  },
  fail(message) {
    this.clear();
    setStatus($("#tree-status"), message, "error");
  },
  loadFile(file) {
    if (!file) return;
    const reader = new FileReader();
    reader.onload = async () => {
      let tree;
      try { tree = JSON.parse(reader.result); } catch (_) { this.fail(`${file.name} is not a tree file: it is not JSON.`); return; }
      this.clear();
      setStatus($("#tree-status"), `Checking ${file.name}…`);
      try { this.show(await api("POST", "/api/trees/view", { tree }), file.name); } catch (err) { this.fail(`${file.name}: ${err.message}`); }
    };
    reader.readAsText(file);
  },
  show(view, label) {
    this.view = view;
    this.path = [0];
    const s = view.stats;
    setStatus($("#tree-status"), `Showing ${label}.`);
    $("#tree-summary").textContent = `${view.description}: ${num(s.secrets)} secrets, ${num(s.total)} guesses in all, ${s.average.toFixed(4)} on average, at most ${s.max}; ${plural(view.nodes.length, "guess", "guesses")} written in the tree.`;
    $("#tree-view").hidden = false;
    this.render();
  },
  render() {
    const nodes = this.view.nodes;
    const id = this.path[this.path.length - 1];
    const node = nodes[id];
    // Rules for wording: the tree's own length; answers in the wording of the chosen game.
    const rules = this.view.rules;
    const crumbs = this.path.map((nid, i) => {
      const n = nodes[nid];
      let text = i === 0 ? `First guess ${n.guess}` : "";
      if (i > 0) {
        const branch = nodes[this.path[i - 1]].children.find((c) => c.node === nid);
        text = `${answerWords(branch.bulls, branch.cows, rules)} → ${n.guess}`;
      }
      return el("button", { type: "button", "aria-current": i === this.path.length - 1 ? "step" : false,
        onclick: () => { this.path = this.path.slice(0, i + 1); this.render(); } }, text);
    });
    $("#tree-path").replaceChildren(...crumbs);
    $("#node-info").textContent = `Level ${this.path.length}: guess ${node.guess}. ${plural(node.secrets, "secret")} reach this point, ` +
      `needing ${num(node.total)} guesses from here (${(node.total / node.secrets).toFixed(3)} on average, at most ${node.worst}).` +
      (node.solved_here ? ` ${node.guess} itself is one of them and is solved here.` : "");
    this.charts.tree = () => $("#tree-histogram").replaceChildren(node.histogram
      ? barChart(node.histogram, this.path.length === 1 ? "Secrets by guesses needed" : `Secrets by guesses needed from guess ${this.path.length}`, chartWidth($("#tree-histogram")))
      : el("p", { class: "info", text: "These secrets need too many guesses to draw." }));
    this.charts.tree();
    const rows = node.children.map((c) => {
      const child = nodes[c.node];
      return el("tr", {},
        el("td", { "data-feedback": c.feedback }, answerView(c.bulls, c.cows, rules)), el("td", { text: num(child.secrets) }),
        el("td", { text: (child.total / child.secrets).toFixed(3) }), el("td", { text: child.worst }),
        el("td", {}, el("button", { type: "button", "data-feedback": c.feedback, class: "secondary",
          onclick: () => { this.path.push(c.node); this.render(); $("#tree-children button")?.focus(); } }, child.guess)));
    });
    if (node.solved_here && node.children.length) {
      rows.unshift(el("tr", {}, el("td", {}, answerView(rules.length, 0, rules)), el("td", { text: 1 }),
        el("td", { text: "1.000" }), el("td", { text: 1 }), el("td", { text: "solved" })));
    }
    $("#tree-children tbody").replaceChildren(...rows);
  },
};
