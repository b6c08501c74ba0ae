// Words for the rules and answers, pegs, codes in colour, and the advisor's choice in plain words.

import { el, num, plural, fixed } from "./dom.js";

// Mastermind-style games (repeats allowed) answer with black and white pegs, Bulls and Cows with
// bulls and cows.
export const pegsGame = (rules) => !!(rules && rules.repeats);
export function words(rules) {
  return pegsGame(rules)
    ? { hit: "Black", near: "White", hits: (n) => `${n} black`, nears: (n) => `${n} white` }
    : { hit: "Bulls", near: "Cows", hits: (n) => plural(n, "bull"), nears: (n) => plural(n, "cow") };
}
export const answerWords = (bulls, cows, rules) => `${words(rules).hits(bulls)}, ${words(rules).nears(cows)}`;
// A valid turn of this game, to show how a game is typed: the guess, "=", then the answer's
// two counts as digits.
export function exampleTurn(rules) {
  const s = Array.from(rules.symbols);
  const start = rules.no_leading ? 1 : 0;
  const guess = Array.from({ length: rules.length }, (_, i) => s[(start + i) % s.length]).join("");
  const [b, c] = rules.length >= 3 ? [1, 2] : [0, 1];
  return { text: `${guess}=${b}${c}`, says: `${guess}=${b}${c} means the guess ${guess} got ${answerWords(b, c, rules)}` };
}
export const parseFeedback = (text) => { const m = /^(\d+)B(\d+)C$/.exec(text); return m ? [Number(m[1]), Number(m[2])] : [0, 0]; };

export function pegs(bulls, cows, length, rules) {
  const box = el("span", { class: "pegs" + (pegsGame(rules) ? " mm" : ""), "aria-hidden": "true" });
  for (let i = 0; i < length; i++) {
    box.append(el("span", { class: "peg" + (i < bulls ? " hit" : i < bulls + cows ? " near" : "") }));
  }
  return box;
}
// An answer as pegs and words; its text is the words alone.
export const answerView = (bulls, cows, rules) =>
  el("span", { class: "answer" }, pegs(bulls, cows, rules.length, rules), el("span", { text: answerWords(bulls, cows, rules) }));

// Colour games: each symbol gets a colour, shown as a peg with the symbol on it, in the ink that
// keeps it at least 4.5:1 on that colour (white on the dark ones, near-black on the light).
const COLOURS = [
  ["red", "#d7263d", "#fff"], ["blue", "#1b64c8", "#fff"], ["green", "#2a9d4b", "#111"], ["yellow", "#f2c12e", "#111"],
  ["orange", "#f07c1b", "#111"], ["purple", "#7b3fbf", "#fff"], ["cyan", "#1fb5c9", "#111"], ["pink", "#e86bb0", "#111"],
  ["brown", "#8a5a2b", "#fff"], ["grey", "#8c8c8c", "#111"],
];
export const colourGame = (rules) => pegsGame(rules) && Array.from(rules.symbols).length <= COLOURS.length;
export const colourOf = (rules, sym) => COLOURS[Array.from(rules.symbols).indexOf(sym)] || ["", "#888", "#111"];
// The style of a peg or key of symbol `sym`: its colour and its ink.
export const colourStyle = (rules, sym) => `background:${colourOf(rules, sym)[1]};color:${colourOf(rules, sym)[2]}`;
export function codeView(code, rules, big = false) {
  if (!rules || !colourGame(rules)) return el("span", { class: "code" + (big ? " big" : ""), text: code });
  const box = el("span", { class: "code colours" + (big ? " big" : ""), role: "img",
    "aria-label": Array.from(code).map((s) => `${s} ${colourOf(rules, s)[0]}`).join(", ") });
  for (const s of Array.from(code)) {
    box.append(el("span", { class: "cpeg", style: colourStyle(rules, s), text: s }));
  }
  return box;
}
export const digitsOnly = (rules) => /^[0-9]+$/.test(rules.symbols);

// The names the page gives the server's ways of playing; the technical name stays in Details.
const PLAIN = {
  optimal: "Best possible (fewest guesses on average)",
  simple: "First code still possible",
  knuth: "Knuth's (smallest worst case)",
  "expected-size": "Fewest codes left on average",
  entropy: "Most informative answers",
  "most-parts": "Most different answers",
  cows: "Symbols first, then places",
  enumerate: "Every code in order (ignores answers)",
  random: "Random codes (ignores answers)",
};
export const plainName = (name) => PLAIN[name] || name;

// How the advisor chose a guess, in plain words, then the details behind a toggle.
export function adviceWords(a) {
  const how = a.method === "endgame" ? "one of the last codes left, which nothing beats"
    : a.proven_optimal ? "best possible guess (proven)"
      : "a good guess (the best found in the time there was; not proven best)";
  const p = a.partition;
  const split = `It can get ${plural(p.parts, "different answer")}; at worst ${plural(p.largest, "code")} will be left, about ${fixed(p.expected_size, 1)} on average.`;
  const may = p.is_candidate ? " It could be the secret." : " It cannot be the secret, but it narrows the codes down best.";
  return { how, text: `${a.guess}: ${how}. ${split}${may}` };
}
const METHODS = {
  endgame: "endgame: one or two codes left", tree: "read from the shipped optimal decision tree",
  cached: "from an exact search made earlier on this server", exact: "exact search of every code left",
  heuristic: "bounded heuristic", named: "the strategy chosen",
};
export function adviceDetails(a) {
  const rows = [
    ["Method", `${METHODS[a.method] || a.method} (strategy ${a.strategy})`],
    ["Proven optimal", a.proven_optimal ? "yes" : "no"],
    ["Information", `${a.partition.entropy_bits.toFixed(2)} bits`],
  ];
  if (a.total_guesses != null && a.remaining) {
    rows.push(["Guesses to finish", `${num(a.total_guesses)} over the ${plural(a.remaining, "code")} left, ${(a.total_guesses / a.remaining).toFixed(3)} on average`]);
  }
  if (a.sampled) rows.push(["Sampled", "scored on a sample of codes, the game is too large for all"]);
  if (a.note) rows.push(["Note", a.note]);
  rows.push(["Explanation", a.explanation]);
  rows.push(["Time", `${(a.seconds * 1000).toFixed(0)} ms`]);
  return rows.flatMap(([k, v]) => [el("dt", { text: k }), el("dd", { text: String(v) })]);
}
