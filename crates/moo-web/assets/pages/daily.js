// Daily: one secret a day (UTC) for everyone, one try a day in this browser. The engine holds
// the day's game like any other and answers only feedback until it is over; then it gives the
// review, the share card (written by the engine, never here) and the statistics. The try is
// kept in local storage, so a reload replays it.

import { $, el, setStatus, plural } from "../lib/dom.js";
import { api } from "../lib/api.js";
import { answerWords, pegsGame } from "../lib/words.js";
import { keypad } from "../lib/keypad.js";
import { celebrate } from "../lib/win.js";
import { historyTable, turnRows } from "../lib/turns.js";
import { saveState } from "../lib/state.js";
import { reviewView } from "../lib/review.js";
import { GAMES, saveTry, savedTry, statistics, statsView, today } from "../lib/daily.js";

export const daily = {
  id: "daily",
  title: "Daily",
  markup: `
  <h2 id="daily-title">Daily puzzle</h2>
  <p class="info">One secret a day, the same for everyone. You get one try a day; a new puzzle comes at midnight (UTC).</p>
  <div class="row" role="group" aria-label="Game">
    <button id="daily-bulls" type="button" class="secondary" data-game="bulls">Bulls and Cows</button>
    <button id="daily-mastermind" type="button" class="secondary" data-game="mastermind">Mastermind</button>
  </div>
  <details class="howto" id="daily-howto"><summary>How to play</summary><p id="daily-howto-text"></p></details>
  <p id="daily-info" class="info"></p>
  <form id="daily-form" class="row card" autocomplete="off">
    <label for="daily-input">Your guess</label>
    <input id="daily-input" inputmode="numeric" spellcheck="false" autocapitalize="off" required>
    <button id="daily-guess" type="submit">Guess</button>
    <div id="daily-keys" class="keypad" hidden></div>
  </form>
  <p id="daily-status" class="status" role="status" aria-live="polite"></p>
  <div class="row"><button id="daily-giveup" type="button" class="secondary">Give up</button></div>
  ${historyTable("daily-history")}
  <div id="daily-end" hidden>
    <div id="daily-win" class="card win-card" hidden><h3 id="daily-win-title" tabindex="-1"></h3></div>
    <div class="card share">
      <h3>Share your result</h3>
      <p class="info">It shows how your game went without giving the secret away.</p>
      <pre id="daily-share"></pre>
      <div class="row">
        <button id="daily-copy" type="button">Copy</button>
        <button id="daily-share-btn" type="button" class="secondary" hidden>Share…</button>
      </div>
      <p id="daily-copied" class="status" role="status" aria-live="polite"></p>
    </div>
    <div id="daily-stats"></div>
    <p><a href="#stats">All your statistics</a></p>
    <div id="daily-review" class="review"></div>
  </div>
`,
  game: null,
  init() {
    for (const id of Object.keys(GAMES)) $(`#daily-${id}`).addEventListener("click", () => this.open(id));
    $("#daily-form").addEventListener("submit", (e) => { e.preventDefault(); this.guess(); });
    $("#daily-giveup").addEventListener("click", () => this.giveUp());
    $("#daily-copy").addEventListener("click", () => this.copy());
    $("#daily-share-btn").addEventListener("click", () => navigator.share({ text: $("#daily-share").textContent }).catch(() => {}));
    $("#daily-input").addEventListener("input", () => {
      if ($("#daily-status").classList.contains("error")) setStatus($("#daily-status"), "");
    });
  },
  enter(state) {
    const game = GAMES[state.get("g")] ? state.get("g") : (this.game || "bulls");
    // Back on the page, the game on show goes on; a new day (midnight passed) opens anew.
    if (this.opened === `${game} ${today()}`) return;
    this.open(game);
  },
  // Opens `game`'s puzzle of today: the try kept in this browser, replayed, or a new one.
  async open(game) {
    this.game = game;
    this.date = today();
    this.opened = `${game} ${this.date}`;
    this.g = null;
    const opening = (this.opening = {});
    saveState("daily", new URLSearchParams({ g: game }));
    for (const id of Object.keys(GAMES)) $(`#daily-${id}`).setAttribute("aria-pressed", String(id === game));
    $("#daily-end").hidden = true;
    setStatus($("#daily-status"), "");
    this.howto(game);
    let t = savedTry(game);
    if (!t || t.date !== this.date) t = { date: this.date, guesses: [], gaveUp: false, over: false };
    this.try = t;
    this.render();
    try {
      // Played today elsewhere (statistics loaded from a file): the day's one try is spent.
      const s = (await statistics()).stats.find((x) => x.game === game);
      if (s.played_today && !t.guesses.length && !t.over) {
        if (opening === this.opening) this.spent();
        return;
      }
      let g = await api("POST", "/api/games", { daily: { game, date: this.date } });
      for (const guess of t.guesses) g = await api("POST", `/api/games/${g.id}/guesses`, { guess });
      if (t.gaveUp && !g.over) g = await api("POST", `/api/games/${g.id}/give-up`);
      if (opening !== this.opening) return;
      this.g = g;
      this.render();
      if (g.over) { this.finish(); return; }
      if (t.guesses.length) setStatus($("#daily-status"), "Welcome back: your game goes on.");
      $("#daily-input").focus();
    } catch (err) {
      if (opening !== this.opening) return;
      this.opened = null;
      setStatus($("#daily-status"), err.message, "error");
    }
  },
  howto(game) {
    $("#daily-howto-text").textContent = pegsGame({ repeats: game === "mastermind" })
      ? "Find the secret of 4 colours, written 1 to 6; a colour may come more than once. After each guess you get a black peg for each right colour in the right place, and a white peg for each right colour in the wrong place."
      : "Find the secret of 4 different digits. After each guess you are told the bulls (right digit in the right place) and the cows (right digit in the wrong place).";
    // A first visit opens the rules.
    $("#daily-howto").open = !savedTry("bulls") && !savedTry("mastermind");
  },
  async guess(again = true) {
    const input = $("#daily-input");
    if (!this.g || this.g.over) return;
    try {
      const guess = input.value.trim();
      this.g = await api("POST", `/api/games/${this.g.id}/guesses`, { guess });
      input.value = "";
      this.try.guesses.push(this.g.turns[this.g.turns.length - 1].guess);
      saveTry(this.game, this.try);
      this.render();
      if (this.g.over) { this.finish(); return; }
    } catch (err) {
      // A game the engine dropped (idle, restarted) comes back from the try kept here.
      if (err.code === "no_such_game" && again) { await this.open(this.game); return this.guess(false); }
      setStatus($("#daily-status"), err.message, "error");
    }
    // A guess played from the keypad keeps the focus there: no phone keyboard pops up.
    if (!$("#daily-keys").contains(document.activeElement)) input.focus();
  },
  async giveUp() {
    if (!this.g || this.g.over) return;
    if (!window.confirm("Give up today's puzzle? You get one try a day.")) return;
    try {
      this.g = await api("POST", `/api/games/${this.g.id}/give-up`);
      this.try.gaveUp = true;
      saveTry(this.game, this.try);
      this.render();
      this.finish();
    } catch (err) { setStatus($("#daily-status"), err.message, "error"); }
  },
  // The game is over: the day's try is spent; the result, the statistics and the review.
  async finish() {
    const g = this.g;
    const opening = this.opening;
    this.try.over = true;
    saveTry(this.game, this.try);
    $("#daily-end").hidden = false;
    $("#daily-win").hidden = true;
    $("#daily-share").textContent = "";
    $("#daily-review").replaceChildren(el("p", { class: "info", text: "Reviewing every guess…" }));
    try {
      const r = await api("POST", "/api/daily/result", {
        game: this.game, date: this.date, guesses: g.turns.map((t) => t.guess), gave_up: g.gave_up,
      });
      const s = await statistics({ add: r.result });
      if (opening !== this.opening) return;
      $("#daily-share").textContent = r.share;
      $("#daily-share-btn").hidden = !navigator.share;
      setStatus($("#daily-copied"), "");
      $("#daily-stats").replaceChildren(statsView(s.stats.find((x) => x.game === this.game)));
      $("#daily-review").replaceChildren(reviewView(r.review, g.rules));
      $("#daily-end").dataset.ready = "1";
      if (g.won) celebrate($("#daily-win"), $("#daily-win-title"), `Solved in ${plural(g.turns.length, "guess", "guesses")}!`);
      // The result's first action: sharing it.
      $("#daily-copy").focus();
    } catch (err) {
      if (opening === this.opening) $("#daily-review").replaceChildren(el("p", { class: "status error", text: err.message }));
    }
  },
  // Today's try was made in another browser whose statistics were loaded here.
  spent() {
    for (const id of ["#daily-input", "#daily-guess", "#daily-giveup"]) $(id).disabled = true;
    setStatus($("#daily-status"), "You have played today's puzzle. Come back tomorrow for the next one.");
  },
  async copy() {
    const text = $("#daily-share").textContent;
    try {
      await navigator.clipboard.writeText(text);
      setStatus($("#daily-copied"), "Copied: paste it wherever you like.");
    } catch (_) {
      // No clipboard here (an old browser, a page not served securely): select the text instead.
      getSelection().selectAllChildren($("#daily-share"));
      setStatus($("#daily-copied"), "Could not copy by itself: the text is selected, copy it with your keyboard or menu.", "error");
    }
  },
  render() {
    const g = this.g;
    const over = !g || g.over;
    for (const id of ["#daily-input", "#daily-guess", "#daily-giveup"]) $(id).disabled = over;
    const rules = g ? g.rules : { length: 4, symbols: this.game === "mastermind" ? "123456" : "0123456789", repeats: this.game === "mastermind" };
    keypad($("#daily-keys"), $("#daily-input"), over ? null : rules, g && g.ruled_out, () => this.guess());
    $("#daily-info").textContent = g ? `Puzzle #${g.daily.number} · ${g.daily.date} · ${GAMES[this.game]}` : "";
    $("#daily-history tbody").replaceChildren(...(g ? turnRows(g.turns, g.rules) : []));
    if (!g) return;
    if (g.won) setStatus($("#daily-status"), `You found it in ${plural(g.turns.length, "guess", "guesses")}! The secret was ${g.secret}.`, "win");
    else if (g.over) setStatus($("#daily-status"), `The secret was ${g.secret}.`);
    else if (g.turns.length) {
      const last = g.turns[g.turns.length - 1];
      setStatus($("#daily-status"), `${last.guess}: ${answerWords(last.bulls, last.cows, g.rules)}.`);
    }
  },
};
