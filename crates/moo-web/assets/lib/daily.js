// The daily puzzle's state kept in this browser: the day, each game's try of the day, and the
// record of results behind the statistics. The engine reads, merges and counts the record
// (POST /api/daily/stats) and answers its new text, which the page only keeps and exports.

import { api } from "./api.js";
import { el, fixed, plural } from "./dom.js";

const read = (key) => { try { return localStorage.getItem(key); } catch (_) { return null; } };
const write = (key, value) => { try { localStorage.setItem(key, value); } catch (_) { /* private mode */ } };

// Today's date in UTC, YYYY-MM-DD: everyone's day changes at the same moment. For tests only,
// localStorage "moo.test.today" fixes the day (the book's daily page documents it); a player
// who sets it plays that day's puzzle, as `moo daily --date` does.
export const today = () => read("moo.test.today") || new Date().toISOString().slice(0, 10);

export const GAMES = { bulls: "Bulls and Cows", mastermind: "Mastermind" };

// A game's try: {date, guesses, gaveUp, over}, or null.
export function savedTry(game) {
  try { return JSON.parse(read(`moo.daily-try.${game}`)); } catch (_) { return null; }
}
export const saveTry = (game, t) => write(`moo.daily-try.${game}`, JSON.stringify(t));

// The record's text, as the engine last wrote it (empty on a first visit).
export const recordText = () => read("moo.daily-record") || "";

// The statistics, after `change` ({add: result} or {import: text}) is made to the record; the
// record is kept only once the engine accepted it, so a refused import loses nothing.
export async function statistics(change = {}) {
  const r = await api("POST", "/api/daily/stats", Object.assign({ today: today(), record: recordText() }, change));
  write("moo.daily-record", r.file);
  return r;
}

// One game's statistics as a card: the figures, then the wins by guesses used as bars.
export function statsView(s) {
  const figures = [
    ["Played", s.played],
    ["Won", s.played ? `${Math.round((100 * s.won) / s.played)}%` : "–"],
    ["Days won in a row", s.current_streak],
    ["Most days won in a row", s.longest_streak],
  ];
  const most = Math.max(1, ...s.distribution);
  const bars = s.distribution.map((n, i) => el("li", {},
    el("span", { class: "dist-label", text: plural(i + 1, "guess", "guesses") }),
    el("span", { class: "dist-bar", style: `width:${Math.max(4, (100 * n) / most)}%`, text: n })));
  return el("div", { class: "card stats", "data-game": s.game },
    el("h3", { text: GAMES[s.game] }),
    el("dl", { class: "figures" }, ...figures.flatMap(([k, v]) => [el("div", {}, el("dd", { text: String(v) }), el("dt", { text: k }))])),
    el("p", { class: "info", text: s.average_cost == null ? "No guesses yet."
      : `On average each guess cost ${fixed(s.average_cost, 2)} guesses against the best possible play.` }),
    s.distribution.length ? el("h4", { text: "Wins by guesses used" }) : null,
    s.distribution.length ? el("ol", { class: "distribution" }, ...bars) : null);
}
