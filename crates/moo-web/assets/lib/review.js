// The review of a game, shared by Play, the Solver, the Assistant and the Review page.

import { el, num, plural, fixed } from "./dom.js";
import { api } from "./api.js";
import { answerView, codeView } from "./words.js";
import { repairBoxes } from "./turns.js";

// The core's verdict words (review.rs, Verdict) with the symbol beside each and what it means
// for someone who knows none of our terms; the core chooses the word, the page only shows it.
const VERDICTS = {
  best: ["★", "Best", "as good as the best guess"],
  excellent: ["!", "Excellent", "almost as good as the best guess"],
  good: ["✓", "Good", "a sound guess that lost a little"],
  inaccuracy: ["?!", "Inaccuracy", "a better guess was there"],
  mistake: ["?", "Mistake", "this guess lost a lot"],
  blunder: ["??", "Blunder", "this guess lost about a whole guess or more"],
};

const costWords = (cost) => cost < 0.005 ? "less than 0.01 guesses" : `${fixed(cost, 2)} guesses`;

// The core's GameReview in plain words: per move the verdict and what the answer left; the
// expected figures, notes and times behind Details.
// `who.by` "computer" when the Solver guessed; `who.misled` the turns ("4-6 9-9") it picked after
// an answer the player later fixed, shown as such and left out of its total.
export function reviewView(r, rules, who = {}) {
  const computer = who.by === "computer";
  const misled = new Set((who.misled || "").split(" ").filter(Boolean).flatMap((span) => {
    const [a, z] = span.split("-").map(Number);
    return Array.from({ length: Math.max(0, z - a + 1) }, (_, i) => a + i);
  }));
  const box = el("div", { class: "card review-card" });
  box.append(el("h3", { text: "How good was each guess?" }));
  const est = r.proven ? "" : " (estimate)";
  if (r.optimal_expected != null) {
    box.append(el("p", { text: `${computer ? "The computer used" : "You used"} ${plural(r.guesses_played, "guess", "guesses")}${r.won ? "" : " without finding the secret"}; ` +
      `playing the best possible guess every time needs ${fixed(r.optimal_expected, 2)} on average from the start${est}.` }));
  }
  const total = r.moves.reduce((sum, m) => sum + (misled.has(m.turn) ? 0 : m.cost), 0);
  const whose = computer ? "the computer's" : "your";
  box.append(el("p", { class: "review-total", text: (total < 0.005
    ? `Every guess was as good as the best possible one${est}.`
    : `Together ${whose} guesses cost ${fixed(total, 2)} guesses on average against the best possible play${est}.`)
    + (misled.size ? ` Not counted: ${plural(misled.size, "guess", "guesses")} picked after an answer that was later fixed.` : "") }));
  const rows = r.moves.map((m) => {
    const [symbol, word, meaning] = VERDICTS[m.verdict];
    const estimate = m.verdict_estimated ? " (estimate)" : "";
    const wronged = misled.has(m.turn);
    const verdict = wronged ? `Not counted: picked after a wrong answer that was later fixed`
      : m.is_best
      ? `${symbol} ${word}: ${m.proven ? "the best possible guess (proven)" : "as good as the best guess found"}${estimate}`
      : `${symbol} ${word}: ${meaning}, this guess cost ${costWords(m.cost)} on average${estimate}`;
    const notes = [];
    if (m.repeats_turn) notes.push(`repeats guess ${m.repeats_turn}`);
    else if (m.told_nothing_apart) notes.push("told no codes apart");
    if (!m.could_be_secret) notes.push("could not be the secret");
    const luck = m.after < m.luck.expected_left - 0.05 ? "a lucky answer" : m.after > m.luck.expected_left + 0.05 ? "an unlucky answer" : "an average answer";
    // A cost that shows as 0.00 is no loss, and is not styled as one.
    return el("tr", { class: m.is_best ? "best" : m.cost >= 0.005 && !wronged ? "costly" : "", "data-misled": wronged ? "1" : null, "data-cost": m.cost, "data-verdict": m.verdict },
      el("td", { text: m.turn }), el("td", {}, codeView(m.guess, rules)),
      el("td", {}, answerView(m.bulls, m.cows, rules)),
      el("td", { text: `${num(m.before)} → ${m.bulls === rules.length ? "found" : num(m.after)}` }),
      el("td", {}, el("span", { class: "verdict", text: verdict }),
        notes.length ? el("small", { text: ` · ${notes.join(", ")}` }) : null,
        m.before > 1 ? el("small", { class: "luck", text: ` · ${luck}: ${plural(m.after, "code")} left where this guess leaves ${fixed(m.luck.expected_left, 1)} on average` }) : null,
        // Phones hide the best-guess column: the best guess then shows here.
        m.is_best ? null : el("small", { class: "best-inline" }, " · best guess: ", codeView(m.best_guess, rules))),
      el("td", {}, m.is_best ? el("span", { text: "—", "aria-label": "your guess" }) : codeView(m.best_guess, rules)));
  });
  box.append(el("div", { class: "scroll" }, el("table", { class: "history review-table" },
    el("thead", {}, el("tr", {}, ...["#", "Guess", "Answer", "Codes left", "How good", "Best guess"].map((h) => el("th", { text: h })))),
    el("tbody", {}, ...rows))));
  const details = r.moves.flatMap((m) => [
    el("dt", { text: `Guess ${m.turn}` }),
    el("dd", { text: `expected guesses still needed after it ${m.expected_after_guess.toFixed(3)}, after ${m.best_guess} ${m.expected_after_best.toFixed(3)}; ` +
      `${m.proven ? "proven by exact search" : "estimated"}${m.note ? ` (${m.note})` : ""}; ${(m.seconds * 1000).toFixed(0)} ms` }),
  ]);
  details.push(el("dt", { text: "Summary" }), el("dd", { text: r.summary }));
  box.append(el("details", { class: "more" }, el("summary", { text: "Details" }), el("dl", { class: "details" }, ...details)));
  return box;
}
// Asks the server for the review of `history` and shows it in `out`; `status` takes errors.
export async function showReview(out, body, history, rules, fix = null, who = {}) {
  out.hidden = false;
  out.replaceChildren(el("p", { class: "info", text: "Reviewing every guess…" }));
  try {
    const r = await api("POST", "/api/review", Object.assign({}, body, { history }));
    if (r.contradiction) {
      out.replaceChildren(el("p", { class: "status error", text: "No code fits every answer: one of them must be wrong." }),
        ...(fix ? repairBoxes(r.contradiction, rules, fix) : []));
      return r;
    }
    out.replaceChildren(reviewView(r, rules, who));
    return r;
  } catch (err) {
    out.replaceChildren(el("p", { class: "status error", text: err.message }));
    return null;
  }
}
