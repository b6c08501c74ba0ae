// Solver: the player thinks of a secret and answers the page's guesses. Like the Assistant, the
// page holds the history and sends it whole each time.

import { $, el, setStatus, plural } from "../lib/dom.js";
import { api } from "../lib/api.js";
import { adviceDetails, adviceWords, answerWords, codeView, pegs, pegsGame, words } from "../lib/words.js";
import { goReview, historyText, mayDropGame, parseHistory, repairBoxes, stepStatus, turnRows } from "../lib/turns.js";
import { saveState } from "../lib/state.js";
import { rulesForm, STRATEGIES } from "../lib/forms.js";

export const solver = {
  id: "solver",
  title: "Solver",
  markup: `
  <h2 id="solver-title">Solver: think of a secret</h2>
  <p class="info">Think of a secret code; the page guesses it. Tell it how each guess scores against your secret.</p>
  <details class="settings" open><summary>Game</summary>
    <form id="solver-rules" class="rules card"></form>
    <details class="more"><summary>Details</summary>
      <div class="row"><label for="strategy-select">How the guesses are picked</label>
        <select id="strategy-select"></select></div>
    </details>
  </details>
  <div id="solver-panel" class="card">
    <p class="info" id="solver-turn-line">Guess <span id="solver-turn">1</span>:</p>
    <p id="solver-guess" class="code-big">&nbsp;</p>
    <p id="solver-remaining" class="info"></p>
    <p id="solver-status" class="status" role="status" aria-live="polite"></p>
    <div id="feedback-buttons" class="feedback-grid" role="group" aria-label="Answer for this guess"></div>
    <details id="other-feedback">
      <summary>None of these fits?</summary>
      <p class="info">These answers are impossible if every earlier answer was right; choose one to see which answer was wrong and fix it.</p>
      <div id="other-buttons" class="feedback-grid"></div>
    </details>
    <form id="feedback-form" class="row" autocomplete="off">
      <label for="feedback-input">or type it</label>
      <input id="feedback-input" spellcheck="false" autocapitalize="characters" inputmode="numeric">
      <button type="submit">Answer</button>
    </form>
    <div id="repairs"></div>
    <details class="more" id="solver-more"><summary>Details</summary><dl id="solver-details" class="details"></dl></details>
  </div>
  <div class="row">
    <button id="undo-btn" type="button" class="secondary">Undo last answer</button>
    <button id="solver-start" type="button" class="secondary">Start over</button>
    <button id="solver-review" type="button" class="secondary">Review this game</button>
  </div>
  <div class="scroll">
    <table id="solver-history" class="history turns"><tbody></tbody></table>
  </div>
`,
  history: [],
  step: null,
  started: false,
  init() {
    // No name: the server's advisor picks each guess (exact when it can).
    $("#strategy-select").append(el("option", { value: "", text: "the best guess the server finds in time" }));
    for (const s of STRATEGIES) $("#strategy-select").append(el("option", { value: s.name, text: `${s.name}: ${s.about}` }));
    this.form = rulesForm($("#solver-rules"), () => this.restart(), () => this.mayDrop());
    $("#solver-start").addEventListener("click", () => this.restart());
    $("#strategy-select").addEventListener("change", (e) => { if (this.mayDrop()) this.restart(); else e.target.value = this.strategy; });
    $("#undo-btn").addEventListener("click", () => { this.history.pop(); this.ask(); });
    // The computer guessed; the guesses it picked after an answer later fixed are not its fault.
    $("#solver-review").addEventListener("click", () => goReview(this.form, this.history,
      { by: "computer", misled: this.misled.filter(([a, z]) => a <= z && z <= this.history.length).map(([a, z]) => `${a}-${z}`).join(" ") }));
    $("#feedback-form").addEventListener("submit", (e) => {
      e.preventDefault();
      const text = $("#feedback-input").value.trim();
      if (text) this.answer(text, true);
    });
  },
  enter(state, entering) {
    if (this.started && (!entering || state.toString() === this.params().toString())) { this.save(); return; }
    this.started = true;
    this.form.load(state);
    if (state.get("s")) $("#strategy-select").value = state.get("s");
    try { this.history = parseHistory(state.get("h") || ""); } catch (_) { this.history = []; }
    this.ask();
  },
  params() {
    const p = this.form.save(new URLSearchParams());
    if ($("#strategy-select").value) p.set("s", $("#strategy-select").value);
    if (this.history.length) p.set("h", historyText(this.history));
    return p;
  },
  save() { saveState("solver", this.params()); },
  // As on Play: a change of game asks before it throws away answers given.
  mayDrop() { return (this.step && this.step.won) || mayDropGame(this.history.length); },
  misled: [],
  restart() { this.misled = []; this.started = true; this.history = []; this.step = null; this.ask(); },
  answer(feedback, typed = false) {
    if (!this.step || stepStatus(this.step) !== "guess") return;
    this.history.push({ guess: this.step.advice.guess, feedback });
    this.ask(typed);
  },
  async ask(typed = false) {
    const status = $("#solver-status");
    setStatus(status, "Thinking…");
    status.dataset.status = "busy";
    this.rules = this.form.rules();
    this.strategy = $("#strategy-select").value;
    const body = Object.assign(this.form.body(), { strategy: $("#strategy-select").value || undefined, history: this.history });
    try {
      this.step = await api("POST", "/api/solver", body);
      // The history as the server read it, so answers show in one form.
      this.history = this.step.turns.map((t) => ({ guess: t.guess, feedback: t.feedback }));
      if (typed) $("#feedback-input").value = "";
      this.render();
      this.save();
    } catch (err) {
      // A bad typed answer is the client's last turn: take it back (leaving the text in its box
      // to correct) so the game can go on.
      if (this.history.length && /^turn \d+:/.test(err.message)) {
        this.history.pop();
        status.dataset.status = this.step ? stepStatus(this.step) : "none";
        setStatus(status, err.message.replace(/^turn \d+: /, "That answer was refused: "), "error");
        if (typed) $("#feedback-input").focus();
        return;
      }
      // Refused rules: show no game rather than the previous one.
      this.step = null;
      this.history = [];
      this.render();
      setStatus(status, err.message, "error");
    }
  },
  render() {
    const s = this.step;
    const status = $("#solver-status");
    const kind = s ? stepStatus(s) : "none";
    status.dataset.status = kind;
    const rules = this.rules;
    const w = words(rules);
    const buttons = $("#feedback-buttons");
    const other = $("#other-buttons");
    buttons.replaceChildren();
    other.replaceChildren();
    $("#repairs").replaceChildren();
    $("#other-feedback").hidden = true;
    $("#feedback-form").hidden = kind !== "guess";
    $("#feedback-input").placeholder = pegsGame(rules) ? "black white, like 1 2" : "bulls cows, like 1 2";
    $("#undo-btn").disabled = this.history.length === 0;
    $("#solver-review").disabled = this.history.length === 0;
    $("#solver-turn").textContent = this.history.length + (kind === "guess" ? 1 : 0);
    $("#solver-turn-line").hidden = kind !== "guess";
    $("#solver-details").replaceChildren();
    $("#solver-more").hidden = kind !== "guess";
    $("#solver-history tbody").replaceChildren(...turnRows(this.history, rules));
    const guessBox = $("#solver-guess");
    if (!s) {
      guessBox.textContent = "?";
      $("#solver-remaining").textContent = "";
      return;
    }
    if (kind === "guess") {
      const a = s.advice;
      guessBox.replaceChildren(codeView(a.guess, rules, true));
      $("#solver-remaining").textContent = `${plural(s.remaining, "code")} still possible. How does this guess score against your secret? This is ${adviceWords(a).how}.`;
      $("#solver-details").replaceChildren(...adviceDetails(a));
      setStatus(status, "");
      for (const f of s.answers) {
        const label = answerWords(f.bulls, f.cows, rules);
        if (f.remaining > 0) {
          buttons.append(el("button", {
            type: "button", "data-feedback": f.feedback, class: f.win ? "win" : "",
            onclick: () => this.answer(f.feedback),
          }, pegs(f.bulls, f.cows, rules.length, rules), el("span", { text: f.win ? "Correct!" : label }),
          el("small", { text: f.win ? label : `${plural(f.remaining, "code")} left` })));
        } else {
          other.append(el("button", { type: "button", "data-feedback": f.feedback, onclick: () => this.answer(f.feedback) },
            pegs(f.bulls, f.cows, rules.length, rules), el("span", { text: label })));
        }
      }
      $("#other-feedback").hidden = other.children.length === 0;
    } else if (kind === "solved") {
      const secret = s.turns[s.turns.length - 1].guess;
      guessBox.replaceChildren(codeView(secret, rules, true));
      $("#solver-remaining").textContent = "";
      setStatus(status, `Your secret is ${secret}: solved in ${plural(s.turns.length, "guess", "guesses")}.`, "win");
      $("#solver-start").focus();
    } else if (kind === "contradiction") {
      guessBox.textContent = "?";
      $("#solver-remaining").textContent = `No code fits every answer. ${w.hit} and ${w.near.toLowerCase()} may have been miscounted: fix one answer below to go on.`;
      setStatus(status, "One of your answers must be wrong.", "error");
      // Fixing an answer keeps every later turn and goes on from the new position.
      $("#repairs").append(...repairBoxes(s.contradiction, rules, (turn, feedback) => {
        this.misled.push([turn + 1, this.history.length]);
        this.history[turn - 1].feedback = feedback;
        this.ask();
      }));
      $("#repairs button")?.focus();
    } else {
      guessBox.textContent = "?";
      $("#solver-remaining").textContent = `${plural(s.remaining, "code")} still possible, but no guess came back.`;
    }
    // The next answer is the sensible next control, unless the player is typing elsewhere.
    const first = buttons.querySelector("button");
    if (first && (!document.activeElement || document.activeElement === document.body)) first.focus();
  },
};
