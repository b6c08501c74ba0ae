// moo web UI: plain JavaScript, no build step. Pages switched by the URL hash.
//
// The page holds no game rules: scoring, checking trees, counting and choosing guesses all come
// from the server, so the same page could later sit on the core compiled to WebAssembly. What it
// keeps is the player's own input (rules, guesses, answers), in local storage and in the URL, so
// a reload or a shared link shows the same game.
"use strict";

const $ = (sel, root = document) => root.querySelector(sel);
const el = (tag, attrs = {}, ...kids) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    // Through the CSS object model: the server's Content-Security-Policy refuses style attributes.
    else if (k === "style") e.style.cssText = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (v !== false && v !== null && v !== undefined) e.setAttribute(k, v === true ? "" : v);
  }
  for (const kid of kids) if (kid !== null && kid !== undefined) e.append(kid);
  return e;
};

// Every API error comes back as {"error": "..."}; surface it as an Error with that message.
async function api(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const res = await fetch(path, init);
  let data = null;
  try { data = await res.json(); } catch (_) { /* not JSON */ }
  if (!res.ok) {
    const err = new Error((data && data.error) || `${res.status} ${res.statusText}`);
    err.status = res.status;
    throw err;
  }
  return data;
}

function setStatus(node, text, kind = "") {
  node.textContent = text;
  node.className = "status" + (kind ? " " + kind : "");
}

// Thousands separators, also for the big counts the server sends as strings.
const num = (n) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
const plural = (n, one, many = one + "s") => `${num(n)} ${n === 1 || n === "1" ? one : many}`;
const fixed = (x, digits) => num(x.toFixed(digits).split(".")[0]) + (digits ? "." + x.toFixed(digits).split(".")[1] : "");

// ---- words, pegs and colours ---------------------------------------------------------------

// Mastermind-style games (repeats allowed) answer with black and white pegs, Bulls and Cows with
// bulls and cows.
const pegsGame = (rules) => !!(rules && rules.repeats);
function words(rules) {
  return pegsGame(rules)
    ? { hit: "Black", near: "White", hits: (n) => `${n} black`, nears: (n) => `${n} white` }
    : { hit: "Bulls", near: "Cows", hits: (n) => plural(n, "bull"), nears: (n) => plural(n, "cow") };
}
const answerWords = (bulls, cows, rules) => `${words(rules).hits(bulls)}, ${words(rules).nears(cows)}`;
const parseFeedback = (text) => { const m = /^(\d+)B(\d+)C$/.exec(text); return m ? [Number(m[1]), Number(m[2])] : [0, 0]; };

function pegs(bulls, cows, length, rules) {
  const box = el("span", { class: "pegs" + (pegsGame(rules) ? " mm" : ""), "aria-hidden": "true" });
  for (let i = 0; i < length; i++) {
    box.append(el("span", { class: "peg" + (i < bulls ? " hit" : i < bulls + cows ? " near" : "") }));
  }
  return box;
}
// An answer as pegs and words; its text is the words alone.
const answerView = (bulls, cows, rules) =>
  el("span", { class: "answer" }, pegs(bulls, cows, rules.length, rules), el("span", { text: answerWords(bulls, cows, rules) }));

// Colour games: each symbol gets a colour, shown as a peg with the symbol on it.
const COLOURS = [
  ["red", "#d7263d"], ["blue", "#1b64c8"], ["green", "#2a9d4b"], ["yellow", "#f2c12e"], ["orange", "#f07c1b"],
  ["purple", "#7b3fbf"], ["cyan", "#1fb5c9"], ["pink", "#e86bb0"], ["brown", "#8a5a2b"], ["grey", "#8c8c8c"],
];
const colourGame = (rules) => pegsGame(rules) && Array.from(rules.symbols).length <= COLOURS.length;
const colourOf = (rules, sym) => COLOURS[Array.from(rules.symbols).indexOf(sym)] || ["", "#888"];
function codeView(code, rules, big = false) {
  if (!rules || !colourGame(rules)) return el("span", { class: "code" + (big ? " big" : ""), text: code });
  const box = el("span", { class: "code colours" + (big ? " big" : ""), role: "img",
    "aria-label": Array.from(code).map((s) => `${s} ${colourOf(rules, s)[0]}`).join(", ") });
  for (const s of Array.from(code)) {
    box.append(el("span", { class: "cpeg", style: `background:${colourOf(rules, s)[1]}`, text: s }));
  }
  return box;
}
const digitsOnly = (rules) => /^[0-9]+$/.test(rules.symbols);

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
const plainName = (name) => PLAIN[name] || name;

// How the advisor chose a guess, in plain words, then the details behind a toggle.
function adviceWords(a) {
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
function adviceDetails(a) {
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

// The rows of a history table, newest first.
const turnRows = (history, rules) => history.map((t, i) => {
  const [b, c] = parseFeedback(t.feedback);
  return el("tr", {}, el("td", { text: i + 1 }), el("td", {}, codeView(t.guess, rules)),
    el("td", { "data-feedback": t.feedback }, answerView(b, c, rules)));
}).reverse();

// A contradiction's repairs as buttons; `fix(turn, feedback)` applies one (turn is 1-based).
function repairBoxes(c, rules, fix) {
  const out = [];
  if (!c.repairs.length) out.push(el("p", { class: "info", text: "No single changed answer makes the answers fit: more than one is wrong. Undo some turns." }));
  for (const r of c.repairs) {
    const [b, cw] = parseFeedback(r.feedback);
    const fixes = r.alternatives.map((a) => el("button", {
      type: "button", class: "secondary", "data-turn": r.turn, "data-feedback": a.feedback,
      onclick: () => fix(r.turn, a.feedback),
    }, `${answerWords(...parseFeedback(a.feedback), rules)} · ${num(a.remaining)} left`));
    out.push(el("div", { class: "repair" },
      el("div", { text: `Turn ${r.turn}: ${r.guess} got ${answerWords(b, cw, rules)}. Had it been one of these, codes would remain:` }),
      el("div", { class: "repair-fixes" }, ...fixes)));
  }
  return out;
}

// A history in the command line's notation: `0123=1B2C 4567=0B1C` (commas also separate).
function parseHistory(text) {
  const turns = [];
  for (const part of text.trim().split(/[\s,;]+/).filter(Boolean)) {
    const m = /^([^=:]+)[=:](.+)$/.exec(part);
    if (!m) throw new Error(`"${part}" is not a guess with its answer: write each turn as guess=answer, like 0123=1B2C`);
    turns.push({ guess: m[1], feedback: m[2].toUpperCase() });
  }
  return turns;
}
const historyText = (history) => history.map((t) => `${t.guess}=${t.feedback}`).join(" ");

// ---- pages, titles, the URL and local storage ----------------------------------------------

const PAGES = ["play", "solver", "assistant", "review", "explorer", "bench"];
const TITLES = { play: "Play", solver: "Solver", assistant: "Assistant", review: "Review", explorer: "Explorer", bench: "Benchmark" };

// `#page?key=value&...`: the page and its saved state.
function hashState() {
  const raw = location.hash.slice(1);
  const q = raw.indexOf("?");
  const page = q < 0 ? raw : raw.slice(0, q);
  return { page: PAGES.includes(page) ? page : "play", params: new URLSearchParams(q < 0 ? "" : raw.slice(q + 1)) };
}
// Writes a page's state into the URL without a new history entry or a hashchange.
function saveState(page, params) {
  const query = params.toString();
  const hash = `#${page}${query ? "?" + query : ""}`;
  if (location.hash !== hash) history.replaceState(null, "", hash);
  try { localStorage.setItem(`moo.${page}`, query); } catch (_) { /* private mode */ }
}
const stored = (page) => { try { return localStorage.getItem(`moo.${page}`); } catch (_) { return null; } };

let current = null;
function showPage() {
  const { page, params } = hashState();
  for (const p of PAGES) {
    $("#" + p).hidden = p !== page;
    const link = $("#nav-" + p);
    if (p === page) link.setAttribute("aria-current", "page"); else link.removeAttribute("aria-current");
  }
  document.title = `${TITLES[page]} · moo`;
  // A link with state wins; a bare page link restores what this browser kept.
  const linked = params.toString() !== "";
  const state = linked ? params : new URLSearchParams(stored(page) || "");
  const pages = { play, solver, assistant, review, explorer, bench };
  // A link to another state than the one on show (pasted into the address bar of an open page)
  // counts as a new arrival.
  const entering = current !== page || (linked && params.toString() !== (stored(page) || ""));
  current = page;
  pages[page].enter(state, entering);
}
window.addEventListener("hashchange", showPage);

// ---- rules form (one per page) -------------------------------------------------------------

let PRESETS = [];
let STRATEGIES = [];
const presetTitle = (p) => `${p.name === "bulls" ? "Bulls and Cows" : "Mastermind"}: ${p.description}`;
// `onApply` runs on "Apply" and on picking a game; `guard()`, when it returns false, keeps the
// old choice (a game in progress the player did not want to lose).
function rulesForm(form, onApply, guard = () => true) {
  const preset = el("select", { "aria-label": "Game" });
  for (const p of PRESETS) preset.append(el("option", { value: p.name, text: presetTitle(p) }));
  preset.append(el("option", { value: "custom", text: "Your own rules" }));
  const length = el("input", { type: "number", inputmode: "numeric", min: 1, max: 15, value: 4, "aria-label": "Code length" });
  const symbols = el("input", { value: "0123456789", size: 12, "aria-label": "Symbols", spellcheck: "false" });
  const repeats = el("input", { type: "checkbox", "aria-label": "Repeats allowed" });
  const noLead = el("input", { type: "checkbox", "aria-label": "First symbol may not lead" });
  const custom = el("span", { class: "custom", hidden: true },
    el("label", {}, "Length ", length),
    el("label", {}, "Symbols ", symbols),
    el("label", {}, repeats, " repeats allowed"),
    el("label", {}, noLead, " the first symbol may not come first"));
  // Picking a game applies it; only rules of one's own need a button once typed in.
  custom.append(el("button", { type: "submit", text: "Apply" }));
  form.append(el("label", {}, "Game ", preset), custom);
  let previous = preset.value;
  const summary = form.closest("details")?.querySelector("summary");
  const label = () => preset.value === "custom" ? "your own rules" : presetTitle(PRESETS.find((p) => p.name === preset.value));
  const showLabel = () => { if (summary) summary.textContent = `Game: ${label()}`; };
  const apply = () => {
    if (!guard()) { preset.value = previous; custom.hidden = preset.value !== "custom"; return; }
    previous = preset.value;
    showLabel();
    onApply();
  };
  preset.addEventListener("change", () => {
    custom.hidden = preset.value !== "custom";
    if (preset.value !== "custom") apply();
  });
  form.addEventListener("submit", (e) => { e.preventDefault(); apply(); });
  const custom_ = () => ({ length: Number(length.value), symbols: symbols.value, repeats: repeats.checked, no_leading: noLead.checked });
  const api_ = {
    // The request body's rules part.
    body: () => preset.value === "custom" ? { rules: custom_() } : { preset: preset.value },
    // The rules as the server describes them, for wording before it answers.
    rules: () => preset.value === "custom" ? custom_() : PRESETS.find((p) => p.name === preset.value).rules,
    label,
    // Into and out of URL parameters.
    save(params) {
      params.set("g", preset.value);
      if (preset.value === "custom") {
        const r = custom_();
        params.set("len", r.length); params.set("sym", r.symbols);
        params.set("rep", r.repeats ? 1 : 0); params.set("lead", r.no_leading ? 0 : 1);
      }
      return params;
    },
    load(params) {
      const g = params.get("g");
      if (!g || ![...preset.options].some((o) => o.value === g)) return;
      preset.value = g;
      custom.hidden = g !== "custom";
      if (g === "custom") {
        length.value = params.get("len") || 4;
        symbols.value = params.get("sym") || "0123456789";
        repeats.checked = params.get("rep") === "1";
        noLead.checked = params.get("lead") === "0";
      }
      previous = g;
      showLabel();
    },
  };
  showLabel();
  return api_;
}

// ---- the review, shared by Play, the Solver, the Assistant and the Review page -------------

// The core's GameReview in plain words: per move the verdict and what the answer left; the
// expected figures, notes and times behind Details.
function reviewView(r, rules) {
  const box = el("div", { class: "card review-card" });
  box.append(el("h3", { text: "How good was each guess?" }));
  const est = r.proven ? "" : " (estimate)";
  if (r.optimal_expected != null) {
    box.append(el("p", { text: `You used ${plural(r.guesses_played, "guess", "guesses")}${r.won ? "" : " without finding the secret"}; ` +
      `playing the best possible guess every time needs ${fixed(r.optimal_expected, 2)} on average from the start${est}.` }));
  }
  box.append(el("p", { class: "review-total", text: r.total_cost < 0.005
    ? `Every guess was as good as the best possible one${est}.`
    : `Together your guesses cost ${fixed(r.total_cost, 2)} guesses on average against the best possible play${est}.` }));
  const rows = r.moves.map((m) => {
    const verdict = m.is_best ? (m.proven ? "best possible guess (proven)" : "as good as the best guess found (estimate)")
      : `this guess cost ${fixed(m.cost, 2)} guesses on average${m.proven ? "" : " (estimate)"}`;
    const notes = [];
    if (m.repeats_turn) notes.push(`repeats guess ${m.repeats_turn}`);
    else if (m.told_nothing_apart) notes.push("told no codes apart");
    if (!m.could_be_secret) notes.push("could not be the secret");
    const luck = m.after < m.luck.expected_left - 0.05 ? "a lucky answer" : m.after > m.luck.expected_left + 0.05 ? "an unlucky answer" : "an average answer";
    return el("tr", { class: m.is_best ? "best" : "costly", "data-cost": m.cost },
      el("td", { text: m.turn }), el("td", {}, codeView(m.guess, rules)),
      el("td", {}, answerView(m.bulls, m.cows, rules)),
      el("td", { text: `${num(m.before)} → ${num(m.after)}` }),
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
async function showReview(out, body, history, rules, fix = null) {
  out.hidden = false;
  out.replaceChildren(el("p", { class: "info", text: "Reviewing every guess…" }));
  try {
    const r = await api("POST", "/api/review", Object.assign({}, body, { history }));
    if (r.contradiction) {
      out.replaceChildren(el("p", { class: "status error", text: "No code fits every answer: one of them must be wrong." }),
        ...(fix ? repairBoxes(r.contradiction, rules, fix) : []));
      return r;
    }
    out.replaceChildren(reviewView(r, rules));
    return r;
  } catch (err) {
    out.replaceChildren(el("p", { class: "status error", text: err.status === 404 ? "This server cannot review games yet." : err.message }));
    return null;
  }
}

// ---- Play ---------------------------------------------------------------------------------

const play = {
  game: null,
  seed: null,
  init() {
    this.form = rulesForm($("#play-rules"), () => this.newGame(), () => this.mayDrop());
    $("#guess-form").addEventListener("submit", (e) => { e.preventDefault(); this.guess(); });
    $("#hint-btn").addEventListener("click", () => this.hint());
    $("#hint-play").addEventListener("click", () => { $("#guess-input").value = $("#hint-out").dataset.guess; this.guess(); });
    $("#giveup-btn").addEventListener("click", () => this.giveUp());
    $("#newgame-btn").addEventListener("click", () => { if (this.mayDrop()) this.newGame(); });
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
    return window.confirm(`Start a new game? The game in progress (${plural(g.turns.length, "guess", "guesses")}) will be lost.`);
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
    saveState("play", p);
  },
  // The same game again: the same rules and seed give the same secret, then the guesses replay.
  async restore(state) {
    this.form.load(state);
    const guesses = (state.get("h") || "").split(" ").filter(Boolean);
    await this.newGame(state.get("seed"), true);
    if (!this.game) return;
    try {
      for (const guess of guesses) this.game = await api("POST", `/api/games/${this.game.id}/guesses`, { guess });
      if (state.get("gaveup") === "1") this.game = await api("POST", `/api/games/${this.game.id}/give-up`);
    } catch (err) { setStatus($("#play-status"), `Could not replay the saved game: ${err.message}`, "error"); }
    this.render();
    if (!this.game.over) setStatus($("#play-status"), guesses.length ? "Welcome back: your game goes on." : "New game: make your first guess.");
    this.save();
    if (this.game.over) this.finished(); else $("#guess-input").focus();
  },
  async newGame(seed, restoring = false) {
    this.starting = true;
    this.resetHint();
    $("#play-review").hidden = true;
    this.seed = seed || String(crypto.getRandomValues(new Uint32Array(1))[0]);
    try {
      // As a string: a number above 2^53 would lose digits, and a link replay another game.
      this.game = await api("POST", "/api/games", Object.assign(this.form.body(), { seed: this.seed }));
      if (!restoring) {
        setStatus($("#play-status"), "New game: make your first guess.");
        this.render();
        this.save();
        $("#guess-input").focus();
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
      this.resetHint();
      this.render();
      this.save();
      if (this.game.over) { this.finished(); return; }
    } catch (err) {
      // A game the server dropped (idle, restarted) comes back from its seed and guesses.
      if (err.status === 404) { await this.restore(hashState().params); return; }
      setStatus($("#play-status"), err.message, "error");
    }
    input.focus();
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
      this.resetHint();
      this.render();
      this.save();
      this.finished();
    } catch (err) { setStatus($("#play-status"), err.message, "error"); }
  },
  // A finished game: its review, and the focus on starting the next one.
  finished() {
    const g = this.game;
    $("#newgame-btn").focus();
    if (g.turns.length) showReview($("#play-review"), this.form.body(), g.turns.map((t) => ({ guess: t.guess, feedback: t.feedback })), g.rules);
  },
  render() {
    const g = this.game;
    const body = $("#play-history tbody");
    const over = !g || g.over;
    for (const id of ["#guess-input", "#guess-btn", "#hint-btn", "#giveup-btn"]) $(id).disabled = over;
    const rules = g ? g.rules : this.form.rules();
    this.howto(rules);
    this.picker(g && !over ? rules : null);
    $("#guess-input").setAttribute("inputmode", digitsOnly(rules) ? "numeric" : "text");
    if (!g) {
      $("#play-info").textContent = "";
      body.replaceChildren();
      return;
    }
    $("#play-info").textContent = `${g.description}: ${num(g.space_size)} possible secrets.`;
    body.replaceChildren(...turnRows(g.turns, g.rules));
    if (g.won) setStatus($("#play-status"), `You won in ${plural(g.turns.length, "guess", "guesses")}! The secret was ${g.secret}.`, "win");
    else if (over) setStatus($("#play-status"), `The secret was ${g.secret}.`);
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
  // Colour buttons for colour games, so a phone needs no keyboard.
  picker(rules) {
    const box = $("#colour-picker");
    if (!rules || !colourGame(rules)) { box.hidden = true; box.replaceChildren(); return; }
    box.hidden = false;
    const input = $("#guess-input");
    box.replaceChildren(...Array.from(rules.symbols).map((s) => el("button", {
      type: "button", class: "cbtn", style: `background:${colourOf(rules, s)[1]}`, "aria-label": `Add ${s} (${colourOf(rules, s)[0]})`, text: s,
      onclick: () => { if (Array.from(input.value).length < rules.length) input.value += s; },
    })), el("button", { type: "button", class: "secondary", "aria-label": "Delete the last colour", text: "⌫",
      onclick: () => { input.value = Array.from(input.value).slice(0, -1).join(""); } }));
  },
};

// ---- Solver and Assistant: the client holds the history and sends it whole each time ------

// The status of a step: "solved", "contradiction", "guess", or "none" (no advice).
const stepStatus = (s) => s.won ? "solved" : s.contradiction ? "contradiction" : s.advice ? "guess" : "none";

const solver = {
  history: [],
  step: null,
  started: false,
  init() {
    this.form = rulesForm($("#solver-rules"), () => this.restart());
    $("#solver-start").addEventListener("click", () => this.restart());
    $("#strategy-select").addEventListener("change", () => this.restart());
    $("#undo-btn").addEventListener("click", () => { this.history.pop(); this.ask(); });
    $("#solver-review").addEventListener("click", () => goReview(this.form, this.history));
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
  restart() { this.started = true; this.history = []; this.step = null; this.ask(); },
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
    $("#feedback-input").placeholder = pegsGame(rules) ? "1B2C or 12" : "1B2C or 12";
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

// Opens the Review page on a history.
function goReview(form, history) {
  const p = form.save(new URLSearchParams());
  p.set("h", historyText(history));
  location.hash = `#review?${p.toString()}`;
}

const assistant = {
  history: [],
  step: null,
  started: false,
  list: 50,
  init() {
    this.form = rulesForm($("#assistant-rules"), () => { this.history = []; this.ask(); });
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

// ---- Review --------------------------------------------------------------------------------

const review = {
  init() {
    this.form = rulesForm($("#review-rules"), () => this.run());
    $("#review-form").addEventListener("submit", (e) => { e.preventDefault(); this.run(); });
  },
  enter(state, entering) {
    if (!entering) return;
    this.form.load(state);
    if (state.get("h")) { $("#review-input").value = state.get("h"); this.run(); }
  },
  async run() {
    const status = $("#review-status");
    let history;
    try { history = parseHistory($("#review-input").value); } catch (err) { setStatus(status, err.message, "error"); return; }
    if (!history.length) { setStatus(status, "Paste a game first, like 0123=1B2C 4567=0B1C.", "error"); return; }
    const p = this.form.save(new URLSearchParams());
    p.set("h", historyText(history));
    saveState("review", p);
    setStatus(status, "");
    status.dataset.status = "busy";
    // A contradiction's repair rewrites the pasted game and reviews it again.
    const fix = (turn, feedback) => {
      history[turn - 1].feedback = feedback;
      $("#review-input").value = historyText(history);
      this.run();
    };
    const r = await showReview($("#review-out"), this.form.body(), history, this.form.rules(), fix);
    status.dataset.status = r ? "done" : "error";
  },
};

// ---- charts --------------------------------------------------------------------------------

const SVG = "http://www.w3.org/2000/svg";
function svgBox(W, H, title) {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", title);
  const add = (tag, attrs, text) => {
    const e = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    svg.append(e);
    return e;
  };
  return { svg, add };
}
// Round tick steps (1, 2 or 5 times a power of ten) so the axis reads 0, 500, 1,000, ...
function niceTicks(max, count = 4) {
  const raw = Math.max(1, max / count);
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw);
  const ticks = [];
  for (let v = 0; v <= max + step * 0.999; v += step) ticks.push(Math.round(v * 1e6) / 1e6);
  return ticks;
}
const chartWidth = (node) => Math.max(300, Math.min(900, node.clientWidth || 640));

function barChart(hist, title, width) {
  const W = width, H = 240, left = 56, bottom = 40, top = 26;
  const plotW = W - left - 10, plotH = H - top - bottom;
  const ticks = niceTicks(Math.max(1, ...hist));
  const maxVal = ticks[ticks.length - 1];
  const { svg, add } = svgBox(W, H, title);
  add("text", { x: 8, y: 16, "font-weight": "600" }, title);
  for (const v of ticks) {
    const y = top + plotH - (plotH * v) / maxVal;
    add("line", { x1: left, x2: W - 10, y1: y, y2: y, class: "grid" });
    add("text", { x: left - 6, y: y + 4, "text-anchor": "end" }, num(v));
  }
  const group = plotW / Math.max(1, hist.length);
  hist.forEach((v, d) => {
    const h = (plotH * v) / maxVal;
    const r = add("rect", { x: left + d * group + 3, y: top + plotH - h, width: Math.max(1, group - 6), height: h, class: "bar" });
    const tip = document.createElementNS(SVG, "title");
    tip.textContent = `${plural(v, "secret")} in ${plural(d + 1, "guess", "guesses")}`;
    r.append(tip);
    add("text", { x: left + d * group + group / 2, y: top + plotH + 14, "text-anchor": "middle" }, d + 1);
  });
  add("text", { x: left + plotW / 2, y: H - 6, "text-anchor": "middle" }, "guesses needed");
  return svg;
}

const LINE_COLOURS = ["#2f6f4f", "#c0392b", "#e8a33d", "#3b6ea5", "#7d4f9e", "#4f9e94", "#9e7d4f", "#555", "#d35fb7"];
// Share of secrets solved within n guesses, one line per way of playing: lines stay readable
// where seven sets of grouped bars did not.
function cumulativeChart(series, title, width) {
  const W = width, H = 260, left = 46, bottom = 40, top = 26;
  const plotW = W - left - 14, plotH = H - top - bottom;
  const maxLen = Math.max(1, ...series.map((s) => s.hist.length));
  const { svg, add } = svgBox(W, H, title);
  add("text", { x: 8, y: 16, "font-weight": "600" }, title);
  for (const v of [0, 25, 50, 75, 100]) {
    const y = top + plotH - (plotH * v) / 100;
    add("line", { x1: left, x2: W - 14, y1: y, y2: y, class: "grid" });
    add("text", { x: left - 6, y: y + 4, "text-anchor": "end" }, `${v}%`);
  }
  const x = (n) => left + (plotW * (n - 1)) / Math.max(1, maxLen - 1);
  for (let n = 1; n <= maxLen; n++) add("text", { x: x(n), y: top + plotH + 14, "text-anchor": "middle" }, n);
  series.forEach((s, k) => {
    const total = s.hist.reduce((a, b) => a + b, 0) || 1;
    let acc = 0;
    const pts = [];
    for (let n = 1; n <= maxLen; n++) {
      acc += s.hist[n - 1] || 0;
      pts.push(`${x(n).toFixed(1)},${(top + plotH - (plotH * acc) / total).toFixed(1)}`);
    }
    add("polyline", { points: pts.join(" "), fill: "none", stroke: LINE_COLOURS[k % LINE_COLOURS.length], "stroke-width": 2.5 });
  });
  add("text", { x: left + plotW / 2, y: H - 6, "text-anchor": "middle" }, "solved within this many guesses");
  return svg;
}

// ---- Explorer ------------------------------------------------------------------------------

const explorer = {
  view: null,
  path: [],
  charts: {},
  init() {
    $("#tree-load").addEventListener("click", () => this.loadSelected());
    $("#tree-file").addEventListener("change", (e) => this.loadFile(e.target.files[0]));
    // A tree of other rules must not stay on show as if it were this game's.
    this.rules = rulesForm($("#tree-rules"), () => this.stale());
    for (const s of STRATEGIES.filter((x) => x.deterministic)) {
      $("#tree-select").append(el("option", { value: s.name, text: plainName(s.name), title: s.about }));
    }
    if (STRATEGIES.some((s) => s.name === "optimal" && s.deterministic)) $("#tree-select").value = "optimal";
    $("#tree-select").addEventListener("change", () => this.stale());
  },
  enter(state, entering) {
    if (!entering) return;
    this.rules.load(state);
    if (state.get("s") && [...$("#tree-select").options].some((o) => o.value === state.get("s"))) $("#tree-select").value = state.get("s");
  },
  stale() {
    if (!this.view) return;
    this.clear();
    setStatus($("#tree-status"), "The choice changed: choose Show the tree to see it.");
  },
  clear() {
    this.view = null;
    this.path = [];
    $("#tree-view").hidden = true;
    delete this.charts.tree;
  },
  async loadSelected() {
    const name = $("#tree-select").value;
    if (!name) return;
    const label = `${plainName(name)}, ${this.rules.label()}`;
    this.clear();
    setStatus($("#tree-status"), `Working out every game of ${label}…`);
    const p = this.rules.save(new URLSearchParams());
    p.set("s", name);
    saveState("explorer", p);
    try {
      this.show(await api("POST", "/api/trees/view", Object.assign(this.rules.body(), { strategy: name })), label);
    } catch (err) { this.fail(err.message); }
  },
  fail(message) {
    this.clear();
    setStatus($("#tree-status"), message, "error");
  },
  loadFile(file) {
    if (!file) return;
    const reader = new FileReader();
    reader.onload = async () => {
      let tree;
      try { tree = JSON.parse(reader.result); } catch (_) { this.fail(`${file.name} is not a tree file: it is not JSON.`); return; }
      this.clear();
      setStatus($("#tree-status"), `Checking ${file.name}…`);
      try { this.show(await api("POST", "/api/trees/view", { tree }), file.name); } catch (err) { this.fail(`${file.name}: ${err.message}`); }
    };
    reader.readAsText(file);
  },
  show(view, label) {
    this.view = view;
    this.path = [0];
    const s = view.stats;
    setStatus($("#tree-status"), `Showing ${label}.`);
    $("#tree-summary").textContent = `${view.description}: ${num(s.secrets)} secrets, ${num(s.total)} guesses in all, ${s.average.toFixed(4)} on average, at most ${s.max}; ${plural(view.nodes.length, "guess", "guesses")} written in the tree.`;
    $("#tree-view").hidden = false;
    this.render();
  },
  render() {
    const nodes = this.view.nodes;
    const id = this.path[this.path.length - 1];
    const node = nodes[id];
    // Rules for wording: the tree's own length; answers in the wording of the chosen game.
    const rules = this.view.rules;
    const crumbs = this.path.map((nid, i) => {
      const n = nodes[nid];
      let text = i === 0 ? `First guess ${n.guess}` : "";
      if (i > 0) {
        const branch = nodes[this.path[i - 1]].children.find((c) => c.node === nid);
        text = `${answerWords(branch.bulls, branch.cows, rules)} → ${n.guess}`;
      }
      return el("button", { type: "button", "aria-current": i === this.path.length - 1 ? "step" : false,
        onclick: () => { this.path = this.path.slice(0, i + 1); this.render(); } }, text);
    });
    $("#tree-path").replaceChildren(...crumbs);
    $("#node-info").textContent = `Level ${this.path.length}: guess ${node.guess}. ${plural(node.secrets, "secret")} reach this point, ` +
      `needing ${num(node.total)} guesses from here (${(node.total / node.secrets).toFixed(3)} on average, at most ${node.worst}).` +
      (node.solved_here ? ` ${node.guess} itself is one of them and is solved here.` : "");
    this.charts.tree = () => $("#tree-histogram").replaceChildren(node.histogram
      ? barChart(node.histogram, this.path.length === 1 ? "Secrets by guesses needed" : `Secrets by guesses needed from guess ${this.path.length}`, chartWidth($("#tree-histogram")))
      : el("p", { class: "info", text: "These secrets need too many guesses to draw." }));
    this.charts.tree();
    const rows = node.children.map((c) => {
      const child = nodes[c.node];
      return el("tr", {},
        el("td", { "data-feedback": c.feedback }, answerView(c.bulls, c.cows, rules)), el("td", { text: num(child.secrets) }),
        el("td", { text: (child.total / child.secrets).toFixed(3) }), el("td", { text: child.worst }),
        el("td", {}, el("button", { type: "button", "data-feedback": c.feedback, class: "secondary",
          onclick: () => { this.path.push(c.node); this.render(); $("#tree-children button")?.focus(); } }, child.guess)));
    });
    if (node.solved_here && node.children.length) {
      rows.unshift(el("tr", {}, el("td", {}, answerView(rules.length, 0, rules)), el("td", { text: 1 }),
        el("td", { text: "1.000" }), el("td", { text: 1 }), el("td", { text: "solved" })));
    }
    $("#tree-children tbody").replaceChildren(...rows);
  },
};

// ---- Benchmark -----------------------------------------------------------------------------

const bench = {
  charts: {},
  init() {
    this.rules = rulesForm($("#bench-rules"), () => {});
    $("#bench-run").addEventListener("click", () => this.run());
  },
  enter(state, entering) { if (entering) this.rules.load(state); },
  // One request per way of playing, so each gets the server's whole time limit and the table
  // grows as results arrive.
  async run() {
    const status = $("#bench-status");
    const rules = this.rules.body();
    saveState("bench", this.rules.save(new URLSearchParams()));
    const done = [];
    const failed = [];
    delete status.dataset.done;
    delete this.charts.bench;
    $("#bench-chart").replaceChildren();
    $("#bench-secrets").textContent = "";
    $("#bench-run").disabled = true;
    $("#bench-table tbody").replaceChildren();
    $("#bench-table").hidden = false;
    for (const name of STRATEGIES.map((x) => x.name)) {
      setStatus(status, `Playing every secret with “${plainName(name)}”…`);
      let r;
      try {
        const report = await api("POST", "/api/bench", Object.assign({ strategies: [name] }, rules));
        r = report.results[0];
        $("#bench-secrets").textContent = `Each way of playing plays all ${num(report.space_size)} secrets of ${report.description}.`;
      } catch (err) {
        // The names come from the server's own list, so a 422 is about the rules: say it once.
        if (err.status === 422) {
          setStatus(status, err.message, "error");
          status.dataset.done = "1";
          $("#bench-table").hidden = true;
          $("#bench-run").disabled = false;
          return;
        }
        r = { strategy: name, error: err.message };
      }
      if (r.error) failed.push(r); else done.push(r);
      this.table(done, failed);
      const shown = done.filter((x) => x.max <= 20);
      this.charts.bench = () => $("#bench-chart").replaceChildren(
        cumulativeChart(shown.map((x) => ({ name: plainName(x.strategy), hist: x.histogram })), "Share of secrets solved within N guesses", chartWidth($("#bench-chart"))),
        el("ul", { class: "legend" }, ...shown.map((x, k) => el("li", {},
          el("span", { class: "swatch", style: `background:${LINE_COLOURS[k % LINE_COLOURS.length]}` }), plainName(x.strategy)))));
      this.charts.bench();
    }
    const hidden = done.filter((x) => x.max > 20).map((x) => plainName(x.strategy));
    setStatus(status, `${plural(done.length, "way")} of playing measured` +
      (failed.length ? `, ${failed.length} failed` : "") +
      (hidden.length ? `; not in the chart, needing over 20 guesses: ${hidden.join(", ")}` : "") + ".");
    status.dataset.done = "1";
    $("#bench-run").disabled = false;
  },
  // Fewest guesses on average first; the best row marked.
  table(done, failed) {
    const sorted = done.slice().sort((a, b) => a.average - b.average || a.max - b.max);
    const rows = sorted.map((r, i) => el("tr", { "data-strategy": r.strategy, class: i === 0 ? "best" : "" },
      el("th", { scope: "row", title: r.strategy }, plainName(r.strategy), i === 0 ? el("span", { class: "badge", text: "best" }) : null),
      el("td", { text: r.average.toFixed(4) }), el("td", { text: num(r.max) }),
      el("td", { text: num(r.total) + (r.gave_up ? ` (${num(r.gave_up)} unsolved)` : "") }),
      el("td", { text: `${num(Math.round(r.seconds * 1000))} ms` })));
    for (const r of failed) {
      rows.push(el("tr", { "data-strategy": r.strategy }, el("th", { scope: "row", text: plainName(r.strategy) }), el("td", { colspan: 4, class: "error", text: r.error })));
    }
    $("#bench-table tbody").replaceChildren(...rows);
  },
};

// ---- start --------------------------------------------------------------------------------

async function start() {
  for (const table of document.querySelectorAll("table.turns")) {
    table.prepend(el("thead", {}, el("tr", {}, ...["#", "Guess", "Answer"].map((h) => el("th", { text: h })))));
  }
  try {
    PRESETS = (await api("GET", "/api/presets")).presets;
    STRATEGIES = (await api("GET", "/api/strategies")).strategies;
    // No name: the server's advisor picks each guess (exact when it can).
    $("#strategy-select").append(el("option", { value: "", text: "the best guess the server finds in time" }));
    for (const s of STRATEGIES) $("#strategy-select").append(el("option", { value: s.name, text: `${s.name}: ${s.about}` }));
  } catch (err) {
    setStatus($("#play-status"), `The server did not answer: ${err.message}`, "error");
    return;
  }
  // Phones: the settings fold away so the game itself comes first.
  if (window.matchMedia("(max-width: 560px)").matches) {
    for (const d of document.querySelectorAll("details.settings")) d.open = false;
  }
  play.init();
  solver.init();
  assistant.init();
  review.init();
  explorer.init();
  bench.init();
  let pending = null;
  window.addEventListener("resize", () => {
    clearTimeout(pending);
    pending = setTimeout(() => [explorer, bench].forEach((p) => Object.values(p.charts).forEach((draw) => draw())), 100);
  });
  showPage();
  document.body.dataset.ready = "1";
}
start();
