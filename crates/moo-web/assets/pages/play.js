// Play: the server holds the secret; the page keeps the game's rules, seed and guesses so a
// reload or a shared link plays the same game again.

import { $, el, setStatus, num, plural } from "../lib/dom.js";
import { api } from "../lib/api.js";
import { adviceWords, answerWords, colourGame, colourOf, digitsOnly, pegsGame, words } from "../lib/words.js";
import { keypad } from "../lib/keypad.js";
import { celebrate, share } from "../lib/win.js";
import { historyTable, mayDropGame, turnRows } from "../lib/turns.js";
import { hashState, saveState, stored } from "../lib/state.js";
import { rulesForm } from "../lib/forms.js";
import { showReview } from "../lib/review.js";

export const play = {
  id: "play",
  title: "Play",
  markup: `
  <h2 id="play-title">Play: guess the secret</h2>
  <details class="howto" id="play-howto">
    <summary>How to play</summary>
    <div id="howto-text"></div>
  </details>
  <details class="settings" open><summary>Game</summary><form id="play-rules" class="rules card"></form></details>
  <p class="row"><label><input id="play-adversary" type="checkbox"> Play against the adversary: it keeps no secret and answers each guess to make the game last as long as possible</label></p>
  <p class="row"><label><input id="play-hard" type="checkbox"> Hard mode: every guess must be a code that could still be the secret</label></p>
  <p id="play-challenge" class="info" hidden></p>
  <p id="play-info" class="info"></p>
  <form id="guess-form" class="row card" autocomplete="off">
    <label for="guess-input">Your guess</label>
    <input id="guess-input" name="guess" inputmode="text" spellcheck="false" autocapitalize="off" required>
    <button id="guess-btn" type="submit">Guess</button>
    <div id="play-keys" class="keypad" hidden></div>
  </form>
  <p id="play-status" class="status" role="status" aria-live="polite"></p>
  <div id="play-win" class="card win-card" hidden>
    <h3 id="play-win-title" tabindex="-1"></h3>
    <p id="play-win-text"></p>
    <div class="row">
      <button id="play-win-new" type="button">New game</button>
      <button id="play-win-share" type="button" class="secondary">Challenge a friend</button>
      <button id="play-win-review" type="button" class="secondary">See the review</button>
    </div>
    <p id="play-win-shared" class="status" role="status" aria-live="polite"></p>
  </div>
  <button id="play-reveal" type="button" class="secondary" hidden>Show the secret</button>
  <div class="row">
    <button id="hint-btn" type="button">Hint</button>
    <button id="giveup-btn" type="button" class="secondary">Give up</button>
    <button id="newgame-btn" type="button" class="secondary">New game</button>
  </div>
  <div id="hint-box" aria-live="polite">
    <p id="hint-out" class="info"></p>
    <button id="hint-play" type="button" class="secondary" hidden>Play this guess</button>
  </div>
  ${historyTable("play-history")}
  <div id="play-review" class="review" tabindex="-1" hidden></div>
`,
  game: null,
  seed: null,
  init() {
    this.form = rulesForm($("#play-rules"), () => this.newGame(), () => this.mayDrop());
    $("#guess-form").addEventListener("submit", (e) => { e.preventDefault(); this.guess(); });
    $("#hint-btn").addEventListener("click", () => this.hint());
    $("#hint-play").addEventListener("click", () => { $("#guess-input").value = $("#hint-out").dataset.guess; this.guess(); });
    $("#giveup-btn").addEventListener("click", () => this.giveUp());
    $("#play-reveal").addEventListener("click", () => { this.veiled = false; this.render(); });
    $("#newgame-btn").addEventListener("click", () => { if (this.mayDrop()) this.newGame(); });
    $("#play-win-new").addEventListener("click", () => this.newGame());
    $("#play-win-share").addEventListener("click", () => this.share());
    $("#play-win-review").addEventListener("click", () => { const r = $("#play-review"); r.scrollIntoView({ block: "start" }); r.focus(); });
    for (const box of ["#play-adversary", "#play-hard"]) $(box).addEventListener("change", (e) => {
      if (this.mayDrop()) this.newGame(); else e.target.checked = !e.target.checked;
    });
    // An old refusal must not stay on screen while the next guess is typed.
    $("#guess-input").addEventListener("input", () => {
      if ($("#play-status").classList.contains("error")) setStatus($("#play-status"), "");
    });
    // A first visit opens the rules of the game.
    if (!stored("play")) $("#play-howto").open = true;
    this.render();
  },
  // A game with guesses and not over is worth a question before it is thrown away.
  mayDrop() {
    const g = this.game;
    if (!g || g.over || !g.turns.length) return true;
    return mayDropGame(g.turns.length);
  },
  enter(state, entering) {
    const other = state.get("seed") && state.get("seed") !== this.seed;
    if (this.game && entering && other && this.mayDrop()) { this.game = null; this.restore(state); return; }
    if (this.game || this.starting) { if (this.game) this.save(); return; }
    if (state.get("seed")) this.restore(state);
    else this.newGame();
  },
  save() {
    const g = this.game;
    if (!g) return;
    const p = this.form.save(new URLSearchParams());
    p.set("seed", this.seed);
    if (g.turns.length) p.set("h", g.turns.map((t) => t.guess).join(" "));
    if (g.gave_up) p.set("gaveup", "1");
    if (g.adversary) p.set("adversary", "1");
    if (g.hard) p.set("hard", "1");
    saveState("play", p);
  },
  // The same game again: the same rules and seed give the same secret, then the guesses replay.
  async restore(state) {
    this.form.load(state);
    $("#play-adversary").checked = state.get("adversary") === "1";
    $("#play-hard").checked = state.get("hard") === "1";
    const guesses = (state.get("h") || "").split(" ").filter(Boolean);
    // A game given up comes back (link or reload) with its secret hidden until asked for.
    this.veiled = state.get("gaveup") === "1";
    await this.newGame(state.get("seed"), true);
    if (!this.game) return;
    try {
      for (const guess of guesses) this.game = await api("POST", `/api/games/${this.game.id}/guesses`, { guess });
      if (state.get("gaveup") === "1") this.game = await api("POST", `/api/games/${this.game.id}/give-up`);
    } catch (err) { setStatus($("#play-status"), `Could not replay the saved game: ${err.message}`, "error"); }
    this.render();
    if (!this.game.over) setStatus($("#play-status"), guesses.length ? "Welcome back: your game goes on." : "New game: make your first guess.");
    this.save();
    if (this.game.over) this.finished();
    else { $("#guess-input").focus(); this.inView(); }
  },
  async newGame(seed, restoring = false) {
    this.starting = true;
    this.resetHint();
    $("#play-review").hidden = true;
    $("#play-win").hidden = true;
    this.seed = seed || String(crypto.getRandomValues(new Uint32Array(1))[0]);
    try {
      // As a string: a number above 2^53 would lose digits, and a link replay another game.
      const body = Object.assign(this.form.body(), { seed: this.seed });
      if ($("#play-adversary").checked) body.adversary = true;
      if ($("#play-hard").checked) body.hard = true;
      this.game = await api("POST", "/api/games", body);
      if (!restoring) {
        setStatus($("#play-status"), "New game: make your first guess.");
        this.render();
        this.save();
        $("#guess-input").focus();
        this.inView();
      }
    } catch (err) {
      // Refused rules: no game is shown rather than the old one under the new rules.
      this.game = null;
      this.render();
      setStatus($("#play-status"), err.message, "error");
    }
    this.starting = false;
  },
  async guess() {
    const input = $("#guess-input");
    if (!this.game) return;
    try {
      this.game = await api("POST", `/api/games/${this.game.id}/guesses`, { guess: input.value.trim() });
      input.value = "";
      // The rules have done their work once the game is under way: the board gets the room.
      if (this.game.turns.length === 1) $("#play-howto").open = false;
      this.resetHint();
      this.render();
      this.save();
      if (this.game.over) { this.finished(); return; }
      this.inView();
    } catch (err) {
      // A game the server dropped (idle, restarted) comes back from its seed and guesses.
      if (err.code === "no_such_game") { await this.restore(hashState().params); return; }
      setStatus($("#play-status"), err.message, "error");
    }
    // A guess played from the keypad keeps the focus there: no phone keyboard pops up.
    if (!$("#play-keys").contains(document.activeElement)) input.focus();
  },
  // On a phone, the keypad at the bottom of the screen with the latest guesses above it.
  inView() {
    if (matchMedia("(max-width: 560px)").matches && !$("#play-keys").hidden) $("#play-keys").scrollIntoView({ block: "end" });
  },
  resetHint() {
    this.hintLevel = 0;
    this.position = null;
    const out = $("#hint-out");
    out.textContent = "";
    out.className = "info";
    delete out.dataset.remaining;
    delete out.dataset.guess;
    $("#hint-play").hidden = true;
    $("#hint-btn").textContent = "Hint";
  },
  // Three levels: how many codes are left, then a symbol to try, then the best guess itself.
  async hint() {
    if (!this.game) return;
    const out = $("#hint-out");
    if (!this.position) {
      out.textContent = "Thinking…";
      out.className = "info";
      try {
        this.position = await api("GET", `/api/games/${this.game.id}/hint`);
      } catch (err) { out.textContent = err.message; out.className = "status error"; return; }
    }
    const h = this.position;
    const a = h.advice;
    this.hintLevel = Math.min(3, this.hintLevel + 1);
    const lines = [`${plural(h.remaining, "code")} still possible.`];
    out.dataset.remaining = h.remaining;
    if (a && this.hintLevel >= 2) {
      const used = new Set(this.game.turns.flatMap((t) => Array.from(t.guess)));
      const sym = Array.from(a.guess).find((s) => !used.has(s)) || Array.from(a.guess)[0];
      const colour = colourGame(this.game.rules) ? ` (${colourOf(this.game.rules, sym)[0]})` : "";
      lines.push(`Try a guess with ${sym}${colour} in it.`);
    }
    if (a && this.hintLevel >= 3) {
      lines.push(`Best guess: ${a.guess}, ${adviceWords(a).how}.`);
      out.dataset.guess = a.guess;
      $("#hint-play").textContent = `Play ${a.guess}`;
      $("#hint-play").hidden = false;
    }
    out.textContent = lines.join(" ");
    out.className = "info";
    $("#hint-btn").textContent = this.hintLevel >= 3 ? "Hint" : "Another hint";
    $("#hint-btn").disabled = this.hintLevel >= 3 || !a;
    if (this.hintLevel >= 3) $("#hint-play").focus();
  },
  async giveUp() {
    if (!this.game) return;
    try {
      this.game = await api("POST", `/api/games/${this.game.id}/give-up`);
      this.veiled = false;
      this.resetHint();
      this.render();
      this.save();
      this.finished();
    } catch (err) { setStatus($("#play-status"), err.message, "error"); }
  },
  // A finished game: a win celebrated (the focus on its headline), else the focus on starting
  // the next one; and the review.
  finished() {
    const g = this.game;
    if (g.won) {
      const who = g.adversary ? "You beat the adversary" : "You won";
      celebrate($("#play-win"), $("#play-win-title"), `${who} in ${plural(g.turns.length, "guess", "guesses")}!`);
      $("#play-win-text").textContent = g.adversary ? `A secret that fits every answer: ${g.secret}.` : `The secret was ${g.secret}.`;
      setStatus($("#play-win-shared"), "");
    } else $("#newgame-btn").focus();
    if (g.turns.length) showReview($("#play-review"), this.form.body(), g.turns.map((t) => ({ guess: t.guess, feedback: t.feedback })), g.rules);
  },
  // The same secret for a friend: the link to this game without its guesses, and the score.
  share() {
    const g = this.game;
    const p = this.form.save(new URLSearchParams());
    p.set("seed", this.seed);
    if (g.adversary) p.set("adversary", "1");
    if (g.hard) p.set("hard", "1");
    const link = `${location.href.split("#")[0]}#play?${p}`;
    const what = g.adversary ? "I beat moo's adversary" : "I found moo's secret";
    share(`${what} in ${plural(g.turns.length, "guess", "guesses")}. Can you do better?`, link, $("#play-win-shared"));
  },
  render() {
    const g = this.game;
    const body = $("#play-history tbody");
    const over = !g || g.over;
    for (const id of ["#guess-input", "#guess-btn", "#hint-btn", "#giveup-btn"]) $(id).disabled = over;
    const rules = g ? g.rules : this.form.rules();
    this.howto(rules);
    keypad($("#play-keys"), $("#guess-input"), g && !over ? rules : null, g && g.ruled_out, () => this.guess());
    $("#guess-input").setAttribute("inputmode", digitsOnly(rules) ? "numeric" : "text");
    if (!g) {
      $("#play-info").textContent = "";
      body.replaceChildren();
      return;
    }
    $("#play-info").textContent = `${g.description}: ${num(g.space_size)} possible secrets.`;
    // The challenge comes from the server, which knows on which game it is set.
    const challenge = $("#play-challenge");
    challenge.hidden = !g.adversary;
    challenge.textContent = g.adversary
      ? (g.challenge || "The adversary keeps no secret: every answer is chosen to make you need as many guesses as possible.")
      : "";
    body.replaceChildren(...turnRows(g.turns, g.rules));
    // Against the adversary there was no secret: the page shows a code that fits every answer.
    const secret = g.adversary ? `A secret that fits every answer: ${g.secret}` : `The secret was ${g.secret}`;
    const hasty = g.adversary && g.heuristic_turns.length
      ? ` (the adversary's answer${g.heuristic_turns.length > 1 ? "s" : ""} to guess ${g.heuristic_turns.join(", ")} came from a rule of thumb: it ran out of time to find the hardest)` : "";
    $("#play-reveal").hidden = !(over && !g.won && this.veiled);
    if (over && !g.won && this.veiled) setStatus($("#play-status"), "This game is over: its secret stays hidden until you ask.");
    else if (g.won) setStatus($("#play-status"), `You won in ${plural(g.turns.length, "guess", "guesses")}! ${secret}.${hasty}`, "win");
    else if (over) setStatus($("#play-status"), `${secret}.${hasty}`);
    else if (g.turns.length) {
      const last = g.turns[g.turns.length - 1];
      setStatus($("#play-status"), `${last.guess}: ${answerWords(last.bulls, last.cows, g.rules)}.`);
    }
  },
  howto(rules) {
    const w = words(rules);
    const n = rules.length;
    const what = pegsGame(rules)
      ? `The computer picks a secret of ${n} colours (shown as the symbols ${rules.symbols}); a colour may appear more than once.`
      : `The computer picks a secret of ${n} different symbols from ${rules.symbols}.`;
    const answer = pegsGame(rules)
      ? "After each guess you get a black peg for each right colour in the right place, and a white peg for each right colour in the wrong place."
      : "After each guess you are told the bulls (right symbol in the right place) and the cows (right symbol in the wrong place).";
    $("#howto-text").replaceChildren(
      el("p", { text: what }), el("p", { text: answer }),
      el("p", { text: `Find the secret in as few guesses as you can. ${w.hit === "Black" ? "Four black pegs" : "All bulls"} means you won. Stuck? Ask for a hint, one step at a time.` }));
  },
};
