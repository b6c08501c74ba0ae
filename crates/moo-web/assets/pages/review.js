// Review: how good each guess of a game was, from the server's exact review.

import { $, setStatus } from "../lib/dom.js";
import { historyText, parseHistory } from "../lib/turns.js";
import { saveState } from "../lib/state.js";
import { rulesForm } from "../lib/forms.js";
import { showReview } from "../lib/review.js";
import { exampleTurn } from "../lib/words.js";

export const review = {
  id: "review",
  title: "Review",
  markup: `
  <h2 id="review-title">Review: how good was each guess?</h2>
  <p class="info">Paste a game (each guess with its answer) to see, guess by guess, how many codes it left
    and how it compares with the best possible guess.</p>
  <details class="settings" open><summary>Game</summary><form id="review-rules" class="rules card"></form></details>
  <form id="review-form" class="card row" autocomplete="off">
    <label for="review-input">Your guesses and answers</label>
    <input id="review-input" spellcheck="false" required>
    <button type="submit">Review</button>
    <p id="review-example" class="info"></p>
  </form>
  <p id="review-status" class="status" role="status" aria-live="polite"></p>
  <div id="review-out" class="review"></div>
`,
  init() {
    this.form = rulesForm($("#review-rules"), () => { this.example(); this.run(); });
    $("#review-form").addEventListener("submit", (e) => { e.preventDefault(); this.run(); });
  },
  enter(state, entering) {
    if (!entering) return;
    this.form.load(state);
    this.example();
    this.by = state.get("by");
    this.misled = state.get("misled");
    if (state.get("h")) { $("#review-input").value = state.get("h"); this.loaded = $("#review-input").value; this.run(); }
  },
  // A valid example of the chosen game, in words.
  example() {
    const e = exampleTurn(this.form.rules());
    $("#review-input").placeholder = e.text;
    $("#review-example").textContent = `One turn after another, each the guess = its answer: ${e.says}.`;
  },
  async run() {
    const status = $("#review-status");
    let history;
    try { history = parseHistory($("#review-input").value); } catch (err) { setStatus(status, err.message, "error"); return; }
    if (!history.length) { setStatus(status, `Paste a game first, like ${exampleTurn(this.form.rules()).text}.`, "error"); return; }
    const p = this.form.save(new URLSearchParams());
    p.set("h", historyText(history));
    // Who guessed and which guesses followed a wrong answer hold for the game as it came only.
    const who = $("#review-input").value === this.loaded ? { by: this.by, misled: this.misled } : {};
    for (const [k, v] of Object.entries(who)) if (v) p.set(k, v);
    saveState("review", p);
    setStatus(status, "");
    status.dataset.status = "busy";
    // A contradiction's repair rewrites the pasted game and reviews it again.
    const fix = (turn, feedback) => {
      history[turn - 1].feedback = feedback;
      $("#review-input").value = historyText(history);
      this.run();
    };
    const r = await showReview($("#review-out"), this.form.body(), history, this.form.rules(), fix, who);
    status.dataset.status = r ? "done" : "error";
  },
};
