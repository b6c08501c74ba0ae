// A game's turns (guess and answer): their table rows, the repairs of a contradiction, the
// command line's notation, and the step the Solver and the Assistant get back for them.

import { el, num, plural } from "./dom.js";
import { answerView, answerWords, codeView, parseFeedback } from "./words.js";

// A game in progress with `turns` turns is worth a question before it is thrown away: true to go on.
export const mayDropGame = (turns) =>
  !turns || window.confirm(`Start a new game? The game in progress (${plural(turns, "guess", "guesses")}) will be lost.`);

// The markup of an empty history table, with the columns `turnRows` fills: one table for every
// page where a person guesses, so that they read a game alike.
export const historyTable = (id) => `<div class="scroll">
    <table id="${id}" class="history">
      <thead><tr><th>#</th><th>Guess</th><th>Answer</th></tr></thead>
      <tbody></tbody>
    </table>
  </div>`;

// The rows of a history table, newest first.
export const turnRows = (history, rules) => history.map((t, i) => {
  const [b, c] = parseFeedback(t.feedback);
  return el("tr", {}, el("td", { text: i + 1 }), el("td", {}, codeView(t.guess, rules)),
    el("td", { "data-feedback": t.feedback }, answerView(b, c, rules)));
}).reverse();

// A contradiction's repairs: the likeliest fix (the core's choice) first, the others folded, as
// short buttons; `fix(turn, feedback)` applies one (turn is 1-based).
export function repairBoxes(c, rules, fix) {
  const out = [];
  for (const r of c.repairs) {
    const a = r.alternatives.find((x) => x.likely);
    if (!a) continue;
    out.push(el("div", { class: "repair repair-likely" },
      el("div", { text: `Most likely: guess ${r.turn} (${r.guess}) got ${answerWords(...parseFeedback(a.feedback), rules)}, not ${answerWords(...parseFeedback(r.feedback), rules)}.` }),
      el("button", { type: "button", "data-turn": r.turn, "data-feedback": a.feedback, onclick: () => fix(r.turn, a.feedback) },
        `Fix guess ${r.turn}`)));
  }
  const others = [];
  if (!c.repairs.length) out.push(el("p", { class: "info", text: "No single changed answer makes the answers fit: more than one is wrong. Undo some turns." }));
  for (const r of c.repairs) {
    const [b, cw] = parseFeedback(r.feedback);
    const fixes = r.alternatives.map((a) => el("button", {
      type: "button", class: "secondary", "data-turn": r.turn, "data-feedback": a.feedback,
      title: `${num(a.remaining)} codes would be left`, onclick: () => fix(r.turn, a.feedback),
    }, answerWords(...parseFeedback(a.feedback), rules)));
    others.push(el("div", { class: "repair" },
      el("div", { text: `Turn ${r.turn}: ${r.guess} got ${answerWords(b, cw, rules)}. Had it been one of these, codes would remain:` }),
      el("div", { class: "repair-fixes" }, ...fixes)));
  }
  if (others.length) {
    // Folded on a phone, where the likeliest fix is all that fits; open where there is room.
    out.push(out.length ? el("details", { class: "more repair-others", open: matchMedia("(min-width: 561px)").matches },
      el("summary", { text: "Other answers that could be wrong" }), ...others) : others);
  }
  return out.flat();
}

// A history in the command line's notation: `0123=1B2C 4567=0B1C` (commas also separate).
export function parseHistory(text) {
  const turns = [];
  for (const part of text.trim().split(/[\s,;]+/).filter(Boolean)) {
    const m = /^([^=:]+)[=:](.+)$/.exec(part);
    if (!m) throw new Error(`"${part}" is not a guess with its answer: write each turn as the guess, "=", then its answer as two numbers`);
    turns.push({ guess: m[1], feedback: m[2].toUpperCase() });
  }
  return turns;
}
export const historyText = (history) => history.map((t) => `${t.guess}=${t.feedback}`).join(" ");

// The status of a step: "solved", "contradiction", "guess", or "none" (no advice).
export const stepStatus = (s) => s.won ? "solved" : s.contradiction ? "contradiction" : s.advice ? "guess" : "none";

// Opens the Review page on a history.
// `extra` (from the Solver: who guessed, the guesses picked after a wrong answer) goes along.
export function goReview(form, history, extra = {}) {
  const p = form.save(new URLSearchParams());
  for (const [k, v] of Object.entries(extra)) if (v) p.set(k, v);
  p.set("h", historyText(history));
  location.hash = `#review?${p.toString()}`;
}
