// Assistant: the player's own game elsewhere. Like the Solver, the page holds the history and
// sends it whole each time.

import { $, el, setStatus, num, plural } from "../lib/dom.js";
import { api } from "../lib/api.js";
import { adviceDetails, adviceWords, codeView, digitsOnly, exampleTurn, words } from "../lib/words.js";
import { goReview, historyText, mayDropGame, parseHistory, repairBoxes, stepStatus, turnRows } from "../lib/turns.js";
import { saveState } from "../lib/state.js";
import { rulesForm } from "../lib/forms.js";

export const assistant = {
  id: "assistant",
  title: "Assistant",
  markup: `
  <h2 id="assistant-title">Assistant: help with a game you play elsewhere</h2>
  <p class="info">Type each guess you made and the answer it got; the page shows which codes are
    still possible and the best next guess.</p>
  <details class="settings" open><summary>Game</summary><form id="assistant-rules" class="rules card"></form></details>
  <form id="assistant-form" class="card turn-form" autocomplete="off">
    <label>Guess <input id="assistant-guess" spellcheck="false" autocapitalize="characters" required></label>
    <label><span class="hit-word">Bulls</span> <input id="assistant-hits" type="number" inputmode="numeric" min="0" value="0" required></label>
    <label><span class="near-word">Cows</span> <input id="assistant-nears" type="number" inputmode="numeric" min="0" value="0" required></label>
    <button type="submit">Add turn</button>
  </form>
  <form id="assistant-paste-form" class="card row" autocomplete="off">
    <label for="assistant-paste">Or paste a whole game</label>
    <input id="assistant-paste" spellcheck="false">
    <button type="submit" class="secondary">Use it</button>
    <p id="assistant-example" class="info"></p>
  </form>
  <div class="row">
    <button id="assistant-undo" type="button" class="secondary">Undo last turn</button>
    <button id="assistant-clear" type="button" class="secondary">Clear</button>
    <button id="assistant-review" type="button" class="secondary">Review these guesses</button>
  </div>
  <p id="assistant-status" class="status" role="status" aria-live="polite"></p>
  <div id="assistant-advice" class="card advice" hidden>
    <p class="info">Best next guess</p>
    <p id="assistant-guess-out" class="code-big"></p>
    <p id="assistant-explanation"></p>
    <details class="more"><summary>Details</summary><dl id="assistant-details" class="details"></dl></details>
    <button id="assistant-use" type="button" class="secondary">Use this guess</button>
  </div>
  <div id="assistant-repairs"></div>
  <div class="scroll">
    <table id="assistant-history" class="history turns"><tbody></tbody></table>
  </div>
  <div id="assistant-left-box" hidden>
    <h3 id="assistant-left-title">Codes still possible</h3>
    <p id="assistant-left" class="codes"></p>
    <button id="assistant-all" type="button" class="secondary" hidden>Show them all</button>
  </div>
`,
  history: [],
  step: null,
  started: false,
  list: 50,
  init() {
    this.form = rulesForm($("#assistant-rules"), () => { this.history = []; this.ask(); },
      () => (this.step && this.step.won) || mayDropGame(this.history.length));
    $("#assistant-form").addEventListener("submit", (e) => { e.preventDefault(); this.add(); });
    // The browser's own check refuses a field before any request: an older error must not stay.
    for (const input of $("#assistant-form").querySelectorAll("input")) {
      input.addEventListener("invalid", () => setStatus($("#assistant-status"), ""));
      input.addEventListener("input", () => { if ($("#assistant-status").classList.contains("error")) setStatus($("#assistant-status"), ""); });
    }
    $("#assistant-paste-form").addEventListener("submit", (e) => { e.preventDefault(); this.paste(); });
    $("#assistant-undo").addEventListener("click", () => { this.history.pop(); this.ask(); });
    $("#assistant-clear").addEventListener("click", () => { this.history = []; this.ask(); });
    $("#assistant-review").addEventListener("click", () => goReview(this.form, this.history));
    $("#assistant-all").addEventListener("click", () => { this.list = 10000; this.ask(); });
    $("#assistant-use").addEventListener("click", () => {
      if (this.step && this.step.advice) $("#assistant-guess").value = this.step.advice.guess;
      $("#assistant-hits").focus();
    });
  },
  enter(state, entering) {
    if (this.started && (!entering || state.toString() === this.params().toString())) { this.save(); return; }
    this.started = true;
    this.form.load(state);
    try { this.history = parseHistory(state.get("h") || ""); } catch (_) { this.history = []; }
    this.ask();
  },
  params() {
    const p = this.form.save(new URLSearchParams());
    if (this.history.length) p.set("h", historyText(this.history));
    return p;
  },
  save() { saveState("assistant", this.params()); },
  add() {
    const guess = $("#assistant-guess").value.trim();
    const feedback = `${Number($("#assistant-hits").value)}B${Number($("#assistant-nears").value)}C`;
    if (!guess) return;
    this.history.push({ guess, feedback });
    this.ask(1);
  },
  paste() {
    let turns;
    try { turns = parseHistory($("#assistant-paste").value); } catch (err) { setStatus($("#assistant-status"), err.message, "error"); return; }
    if (!turns.length) return;
    const before = this.history;
    this.history = turns;
    this.ask(0, before);
  },
  // `added` turns were typed in (taken back if refused); `before` is the history a paste replaced.
  async ask(added = 0, before = null) {
    const status = $("#assistant-status");
    setStatus(status, "Thinking…");
    status.dataset.status = "busy";
    this.rules = this.form.rules();
    try {
      this.step = await api("POST", "/api/solver", Object.assign(this.form.body(), { history: this.history, list: this.list }));
      this.history = this.step.turns.map((t) => ({ guess: t.guess, feedback: t.feedback }));
      if (added) {
        $("#assistant-guess").value = "";
        $("#assistant-hits").value = 0;
        $("#assistant-nears").value = 0;
        $("#assistant-guess").focus();
      }
      if (before) $("#assistant-paste").value = "";
      this.render();
      this.save();
    } catch (err) {
      // A typed or pasted turn the rules refuse is taken back, so it can be corrected.
      if (added) this.history.splice(this.history.length - added, added);
      else if (before) this.history = before;
      else { this.step = null; this.history = []; this.render(); }
      setStatus(status, err.message, "error");
      status.dataset.status = "error";
    }
  },
  render() {
    const s = this.step;
    const rules = this.rules;
    const w = words(rules);
    for (const n of document.querySelectorAll("#assistant .hit-word")) n.textContent = w.hit;
    for (const n of document.querySelectorAll("#assistant .near-word")) n.textContent = w.near;
    const e = exampleTurn(rules);
    $("#assistant-paste").placeholder = e.text;
    $("#assistant-example").textContent = `Each turn is the guess = its answer: ${e.says}.`;
    $("#assistant-hits").max = rules.length;
    $("#assistant-nears").max = rules.length;
    $("#assistant-guess").setAttribute("inputmode", digitsOnly(rules) ? "numeric" : "text");
    $("#assistant-undo").disabled = this.history.length === 0;
    $("#assistant-clear").disabled = this.history.length === 0;
    $("#assistant-review").disabled = this.history.length === 0;
    $("#assistant-history tbody").replaceChildren(...turnRows(this.history, rules));
    $("#assistant-repairs").replaceChildren();
    $("#assistant-advice").hidden = true;
    $("#assistant-left").replaceChildren();
    const status = $("#assistant-status");
    const kind = s ? stepStatus(s) : "none";
    status.dataset.status = kind;
    $("#assistant-left-box").hidden = !s || kind === "contradiction";
    if (!s) return;
    const left = s.candidates.map((c) => el("span", {}, codeView(c, rules)));
    const more = s.remaining - s.candidates.length;
    if (more > 0) left.push(el("span", { text: `and ${num(more)} more` }));
    $("#assistant-left").append(...left);
    $("#assistant-all").hidden = more <= 0 || this.list >= 10000;
    $("#assistant-all").textContent = `Show all ${num(s.remaining)}`;
    $("#assistant-left-title").textContent = `Codes still possible: ${num(s.remaining)}`;
    if (kind === "solved") {
      setStatus(status, `Solved in ${plural(s.turns.length, "guess", "guesses")}: the secret is ${s.turns[s.turns.length - 1].guess}.`, "win");
      $("#assistant-review").focus();
    } else if (kind === "contradiction") {
      setStatus(status, "No code fits every answer: one of them must be wrong. Fix one below to go on.", "error");
      $("#assistant-repairs").append(...repairBoxes(s.contradiction, rules, (turn, feedback) => {
        this.history[turn - 1].feedback = feedback;
        this.ask();
      }));
    } else if (kind === "guess") {
      const a = s.advice;
      setStatus(status, this.history.length ? `${plural(s.remaining, "code")} still possible.` : `Any first guess: ${plural(s.remaining, "code")} possible.`);
      $("#assistant-advice").hidden = false;
      $("#assistant-guess-out").replaceChildren(codeView(a.guess, rules, true));
      $("#assistant-advice").dataset.method = a.method;
      $("#assistant-advice").dataset.proven = a.proven_optimal ? "1" : "0";
      $("#assistant-explanation").textContent = adviceWords(a).text;
      $("#assistant-details").replaceChildren(...adviceDetails(a));
    } else {
      setStatus(status, `${plural(s.remaining, "code")} still possible.`);
    }
  },
};
