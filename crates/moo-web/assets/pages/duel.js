// Duel: you and the computer each hold a secret and take turns guessing, you first. The engine
// holds the duel and decides everything (whose turn, who won, which answer to fix); the page
// keeps the rules, level, seed, your secret and your moves in the link, so a reload replays it.

import { $, el, setStatus, plural } from "../lib/dom.js";
import { api } from "../lib/api.js";
import { answerWords, digitsOnly, pegsGame, words } from "../lib/words.js";
import { repairBoxes, turnRows } from "../lib/turns.js";
import { keypad } from "../lib/keypad.js";
import { celebrate } from "../lib/win.js";
import { hashState, saveState } from "../lib/state.js";
import { rulesForm } from "../lib/forms.js";

const OUTCOME = {
  won: "You win! You found the computer's secret first.",
  lost: "The computer wins: it found your secret first.",
  drawn: "A draw: you both found the other's secret in the same round.",
  gave_up: "You gave up.",
};

export const duel = {
  id: "duel",
  title: "Duel",
  markup: `
  <h2 id="duel-title">Duel: race the computer</h2>
  <details class="howto" id="duel-howto">
    <summary>How to play</summary>
    <p>You and the computer each pick a secret code. You guess first, then the computer guesses, turn after turn.</p>
    <p>Whoever finds the other's secret first wins. The computer always gets as many guesses as you, so if it finds yours in the same round, it is a draw.</p>
    <p>Tell the computer how its guesses score against your secret, or type your secret below and the page answers for you.</p>
  </details>
  <details class="settings" open><summary>Game</summary>
    <form id="duel-rules" class="rules card"></form>
    <div class="row"><label for="duel-level">Computer</label><select id="duel-level"></select></div>
    <div class="row"><label for="duel-secret">Your secret (optional: the page then answers for you)</label>
      <input id="duel-secret" spellcheck="false" autocapitalize="off" autocomplete="off"></div>
    <div class="row"><button id="duel-start" type="button">Start a new duel</button></div>
  </details>
  <p id="duel-info" class="info"></p>
  <p id="duel-status" class="status" role="status" aria-live="polite"></p>
  <form id="duel-guess-form" class="row card" autocomplete="off">
    <label for="duel-guess">Your guess</label>
    <input id="duel-guess" spellcheck="false" autocapitalize="off" required>
    <button id="duel-guess-btn" type="submit">Guess</button>
    <div id="duel-keys" class="keypad" hidden></div>
  </form>
  <div id="duel-win" class="card win-card" hidden><h3 id="duel-win-title" tabindex="-1"></h3></div>
  <form id="duel-answer-form" class="card" autocomplete="off" hidden>
    <p id="duel-pending" class="info"></p>
    <div class="row">
      <label><span id="duel-hit-label">Bulls</span> <input id="duel-bulls" type="number" inputmode="numeric" min="0" value="0"></label>
      <label><span id="duel-near-label">Cows</span> <input id="duel-cows" type="number" inputmode="numeric" min="0" value="0"></label>
      <button id="duel-answer-btn" type="submit">Answer</button>
    </div>
  </form>
  <div id="duel-repairs"></div>
  <div class="row">
    <button id="duel-giveup" type="button" class="secondary">Give up</button>
  </div>
  <div class="duel-boards">
    <div class="scroll"><h3>Your guesses</h3>
      <table id="duel-yours" class="history turns"><tbody></tbody></table></div>
    <div class="scroll"><h3>The computer's guesses</h3>
      <table id="duel-its" class="history turns"><tbody></tbody></table></div>
  </div>
`,
  duel: null,
  moves: [],
  init() {
    this.form = rulesForm($("#duel-rules"), () => this.start(), () => this.mayDrop());
    // The levels come from the engine, which plays them; a duel starts once they are in.
    this.ready = api("GET", "/api/strategies").then(({ levels }) => {
      for (const l of levels) $("#duel-level").append(el("option", { value: l.number, text: `${l.number} · ${l.name}: ${l.about}` }));
      $("#duel-level").value = "2";
    }, (err) => setStatus($("#duel-status"), err.message, "error"));
    $("#duel-start").addEventListener("click", () => { if (this.mayDrop()) this.start(); });
    $("#duel-guess-form").addEventListener("submit", (e) => { e.preventDefault(); this.guess(); });
    $("#duel-answer-form").addEventListener("submit", (e) => { e.preventDefault(); this.answer(); });
    $("#duel-giveup").addEventListener("click", () => this.move("give_up"));
    $("#duel-guess").addEventListener("input", () => {
      if ($("#duel-status").classList.contains("error")) setStatus($("#duel-status"), "");
    });
    this.render();
  },
  mayDrop() {
    const d = this.duel;
    if (!d || d.phase === "over" || !d.you.length) return true;
    return window.confirm(`Start a new duel? The duel in progress (${plural(d.you.length, "guess", "guesses")}) will be lost.`);
  },
  enter(state, entering) {
    // A link to another duel (or another point of this one) replays it; else the duel goes on.
    const other = entering && state.get("seed") && state.toString() !== this.params().toString();
    if (this.duel && !other) { this.save(); return; }
    if (this.starting) return;
    if (state.get("seed")) this.restore(state);
    else this.start();
  },
  params() {
    const p = this.form.save(new URLSearchParams());
    p.set("seed", this.seed);
    p.set("level", this.level);
    if (this.secret) p.set("secret", this.secret);
    if (this.moves.length) p.set("m", this.moves.join(" "));
    return p;
  },
  save() { if (this.duel) saveState("duel", this.params()); },
  // The same duel again: the same rules, level, seed and secret, then the moves replay.
  async restore(state) {
    this.starting = true;
    await this.ready;
    this.form.load(state);
    if (state.get("level")) $("#duel-level").value = state.get("level");
    $("#duel-secret").value = state.get("secret") || "";
    const moves = (state.get("m") || "").split(" ").filter(Boolean);
    await this.start(state.get("seed"));
    if (!this.duel) return;
    try {
      for (const m of moves) await this.send(decode(m), m);
    } catch (err) { setStatus($("#duel-status"), `Could not replay the saved duel: ${err.message}`, "error"); }
    this.render();
    this.save();
  },
  async start(seed) {
    this.starting = true;
    await this.ready;
    this.seed = seed || String(crypto.getRandomValues(new Uint32Array(1))[0]);
    this.level = Number($("#duel-level").value) || 2;
    this.secret = $("#duel-secret").value.trim();
    this.moves = [];
    const body = Object.assign(this.form.body(), { seed: this.seed, level: this.level });
    if (this.secret) body.secret = this.secret;
    try {
      this.duel = await api("POST", "/api/duels", body);
      setStatus($("#duel-status"), "New duel: make your first guess.");
      this.render();
      this.save();
      $("#duel-guess").focus();
    } catch (err) {
      this.duel = null;
      this.render();
      setStatus($("#duel-status"), err.message, "error");
    }
    this.starting = false;
  },
  async send(move, saved) {
    this.duel = await api("POST", `/api/duels/${this.duel.id}/moves`, move);
    this.moves.push(saved);
  },
  // One move: shown and saved, or its refusal shown (a refused move costs nothing).
  async move(move, saved = "q", after = () => {}) {
    if (!this.duel) return;
    try {
      await this.send(move, saved);
      after();
      this.render();
      this.save();
    } catch (err) {
      // A duel the engine dropped (idle, restarted) comes back from its link.
      if (err.code === "no_such_game") { await this.restore(hashState().params); return; }
      setStatus($("#duel-status"), err.message, "error");
    }
  },
  guess() {
    const text = $("#duel-guess").value.trim();
    if (text) this.move({ guess: text }, `g${text}`, () => { $("#duel-guess").value = ""; });
  },
  answer() {
    const answer = `${Number($("#duel-bulls").value) || 0}B${Number($("#duel-cows").value) || 0}C`;
    this.move({ answer }, `a${answer}`);
  },
  // More than one answer wrong: every answer given, to correct as many as need it at once. The
  // engine takes the fixes one after the other and says whether the answers then fit.
  several(d, rules) {
    const w = words(rules);
    const box = el("details", { class: "more several", id: "duel-several" }, el("summary", { text: "More than one answer was wrong? Correct them all" }));
    const rows = d.computer.map((t, i) => {
      const input = (label, value, n) => el("label", {}, el("span", { text: label }), el("input", {
        type: "number", inputmode: "numeric", min: 0, max: rules.length, value, "data-turn": i + 1, "data-count": n,
        "aria-label": `${label} for guess ${i + 1}, ${t.guess}`,
      }));
      return el("div", { class: "row" }, el("span", { text: `Guess ${i + 1}: ${t.guess}` }), input(w.hit, t.bulls, "hit"), input(w.near, t.cows, "near"));
    });
    const apply = el("button", { type: "button", id: "duel-several-apply", text: "Use these answers", onclick: () => this.fixAll(d) });
    box.append(...rows, apply);
    return box;
  },
  async fixAll(d) {
    const fixes = d.computer.map((t, i) => {
      const count = (n) => Number($(`#duel-several input[data-turn="${i + 1}"][data-count="${n}"]`).value) || 0;
      return { turn: i + 1, answer: `${count("hit")}B${count("near")}C`, was: t.feedback };
    }).filter((f) => f.answer !== f.was);
    if (!fixes.length) return;
    try {
      for (const f of fixes) await this.send({ fix: { turn: f.turn, answer: f.answer } }, `f${f.turn}:${f.answer}`);
    } catch (err) {
      this.render();
      this.save();
      setStatus($("#duel-status"), err.message, "error");
      return;
    }
    this.render();
    this.save();
  },
  render() {
    const d = this.duel;
    const rules = d ? d.rules : this.form.rules();
    const phase = d ? d.phase : "over";
    const w = words(rules);
    $("#duel-guess").setAttribute("inputmode", digitsOnly(rules) ? "numeric" : "text");
    $("#duel-secret").setAttribute("inputmode", digitsOnly(rules) ? "numeric" : "text");
    $("#duel-hit-label").textContent = w.hit;
    $("#duel-near-label").textContent = w.near;
    for (const id of ["#duel-bulls", "#duel-cows"]) $(id).max = rules.length;
    $("#duel-guess-form").hidden = phase !== "your_guess";
    $("#duel-answer-form").hidden = phase !== "your_answer";
    $("#duel-giveup").disabled = phase === "over";
    $("#duel-repairs").replaceChildren();
    keypad($("#duel-keys"), $("#duel-guess"), phase === "your_guess" ? rules : null, d && d.ruled_out, () => this.guess());
    if (!d || phase !== "over") $("#duel-win").hidden = true;
    if (!d) {
      $("#duel-info").textContent = "";
      $("#duel-yours tbody").replaceChildren();
      $("#duel-its tbody").replaceChildren();
      return;
    }
    const yours = d.your_secret ? ` Your secret is ${d.your_secret}: the page answers for you.` : "";
    $("#duel-info").textContent = `${d.description}, against level ${d.level.number} (${d.level.name}).${yours}`;
    $("#duel-yours tbody").replaceChildren(...turnRows(d.you, rules));
    $("#duel-its tbody").replaceChildren(...turnRows(d.computer, rules));
    const status = $("#duel-status");
    if (phase === "over") {
      setStatus(status, `${OUTCOME[d.outcome]} The computer's secret was ${d.secret}.`, d.outcome === "won" ? "win" : "");
      if (d.outcome === "won" && $("#duel-win").hidden) celebrate($("#duel-win"), $("#duel-win-title"), `You beat the computer in ${plural(d.you.length, "guess", "guesses")}!`);
      else if (d.outcome !== "won") $("#duel-start").focus();
    } else if (phase === "your_answer") {
      $("#duel-pending").textContent = `The computer guesses ${d.pending}. How does it score against your secret? ${w.hit}: right symbol in the right place; ${w.near.toLowerCase()}: right symbol in the wrong place.`;
      $("#duel-bulls").value = 0;
      $("#duel-cows").value = 0;
      const last = d.you[d.you.length - 1];
      setStatus(status, last ? `Your guess ${last.guess}: ${answerWords(last.bulls, last.cows, rules)}.` : "");
      $("#duel-bulls").focus();
      $("#duel-bulls").select();
    } else if (phase === "fix_answer") {
      setStatus(status, "No secret fits all your answers: one of them must be wrong. Fix it to go on.", "error");
      $("#duel-repairs").append(...repairBoxes(d.contradiction, rules, (turn, answer) => this.move({ fix: { turn, answer } }, `f${turn}:${answer}`)),
        this.several(d, rules));
      $("#duel-repairs button")?.focus();
    } else if (d.you.length) {
      const last = d.you[d.you.length - 1];
      const its = d.computer[d.computer.length - 1];
      const said = its ? ` The computer guessed ${its.guess}: ${answerWords(its.bulls, its.cows, rules)}.` : "";
      setStatus(status, `Your guess ${last.guess}: ${answerWords(last.bulls, last.cows, rules)}.${said}`);
      if (!$("#duel-keys").contains(document.activeElement)) $("#duel-guess").focus();
    }
    if (pegsGame(rules)) $("#duel-guess").placeholder = rules.symbols;
  },
};

// A saved move: g<guess>, a<answer>, f<turn>:<answer>, or q (give up).
function decode(m) {
  if (m[0] === "g") return { guess: m.slice(1) };
  if (m[0] === "a") return { answer: m.slice(1) };
  if (m[0] === "f") { const [turn, answer] = m.slice(1).split(":"); return { fix: { turn: Number(turn), answer } }; }
  return "give_up";
}
