// moo web UI: plain JavaScript, no build step. Four pages switched by the URL hash.
"use strict";

const $ = (sel, root = document) => root.querySelector(sel);
const el = (tag, attrs = {}, ...kids) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (v !== false && v !== null && v !== undefined) e.setAttribute(k, v === true ? "" : v);
  }
  for (const kid of kids) e.append(kid);
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

// Wording: Mastermind-style games (repeats allowed) answer with black and white pegs, Bulls and
// Cows with bulls and cows. The server's short form ("1B2C") reads as both.
const pegsGame = (rules) => !!(rules && rules.repeats);
const plural = (n, one, many = one + "s") => `${n} ${n === 1 ? one : many}`;
function words(rules) {
  return pegsGame(rules)
    ? { hit: "Black", near: "White", hits: (n) => `${n} black`, nears: (n) => `${n} white`, game: "pegs" }
    : { hit: "Bulls", near: "Cows", hits: (n) => plural(n, "bull"), nears: (n) => plural(n, "cow"), game: "bulls and cows" };
}
const answerWords = (bulls, cows, rules) => `${words(rules).hits(bulls)}, ${words(rules).nears(cows)}`;
// The rows of a solver's turns (the tables of class "turns"), newest first.
const turnRows = (history, rules) => history.map((t, i) => el("tr", {},
  el("td", { text: i + 1 }), el("td", { class: "code", text: t.guess }),
  el("td", { text: `${answerWords(...parseFeedback(t.feedback), rules)} (${t.feedback})` }))).reverse();
const parseFeedback = (text) => { const m = /^(\d+)B(\d+)C$/.exec(text); return m ? [Number(m[1]), Number(m[2])] : [0, 0]; };

function pegs(bulls, cows, length, rules) {
  const box = el("span", { class: "pegs" + (pegsGame(rules) ? " mm" : ""), "aria-hidden": "true" });
  for (let i = 0; i < length; i++) {
    box.append(el("span", { class: "peg" + (i < bulls ? " hit" : i < bulls + cows ? " near" : "") }));
  }
  return box;
}

// How the advisor chose a guess, in words.
const METHODS = {
  endgame: "one of the last codes left, which nothing beats",
  tree: "read from the shipped optimal decision tree",
  cached: "from an exact search made earlier on this server",
  exact: "found by an exact search of every code left",
  heuristic: "picked by a heuristic, as an exact search did not fit the time",
  named: "picked by the strategy you chose",
};
function adviceSummary(a) {
  return `${METHODS[a.method] || a.method} (strategy ${a.strategy}), ${a.proven_optimal ? "proven optimal" : "not proven optimal"}`;
}
function adviceDetails(a) {
  const rows = [
    ["How", adviceSummary(a)],
    ["Answers it can get", a.partition.parts],
    ["Codes left at worst", a.partition.largest],
    ["Codes left on average", a.partition.expected_size.toFixed(2)],
    ["Information", `${a.partition.entropy_bits.toFixed(2)} bits`],
    ["Could be the secret", a.partition.is_candidate ? "yes" : "no"],
  ];
  if (a.total_guesses != null && a.remaining) {
    rows.push(["Guesses to finish", `${a.total_guesses} over the ${plural(a.remaining, "code")} left, ${(a.total_guesses / a.remaining).toFixed(3)} on average`]);
  }
  if (a.sampled) rows.push(["Sampled", "scored on a sample of codes, the game is too large for all"]);
  if (a.note) rows.push(["Note", a.note]);
  rows.push(["Time", `${(a.seconds * 1000).toFixed(0)} ms`]);
  return rows.flatMap(([k, v]) => [el("dt", { text: k }), el("dd", { text: String(v) })]);
}

// A contradiction's repairs as buttons; `fix(turn, feedback)` applies one (turn is 1-based).
function repairBoxes(c, rules, fix) {
  const out = [];
  if (!c.repairs.length) out.push(el("p", { class: "info", text: c.message }));
  for (const r of c.repairs) {
    const fixes = r.alternatives.map((a) => el("button", {
      type: "button", class: "secondary", "data-turn": r.turn, "data-feedback": a.feedback,
      onclick: () => fix(r.turn, a.feedback),
    }, `${answerWords(...parseFeedback(a.feedback), rules)} (${plural(a.remaining, "code")} left)`));
    out.push(el("div", { class: "repair" },
      el("div", { text: `Turn ${r.turn}: ${r.guess} answered ${answerWords(...parseFeedback(r.feedback), rules)} (${r.feedback}). Had it been one of these, codes would remain:` }),
      ...fixes));
  }
  return out;
}

// ---- pages --------------------------------------------------------------------------------

const PAGES = ["play", "solver", "assistant", "explorer"];
function showPage() {
  const want = location.hash.slice(1);
  const page = PAGES.includes(want) ? want : "play";
  for (const p of PAGES) {
    $("#" + p).hidden = p !== page;
    const link = $("#nav-" + p);
    if (p === page) link.setAttribute("aria-current", "page"); else link.removeAttribute("aria-current");
  }
  ({ play, solver, assistant, explorer })[page].enter();
}
window.addEventListener("hashchange", showPage);

// ---- rules form (one per page) -------------------------------------------------------------

let PRESETS = [];
let STRATEGIES = [];
// The one line the server gives about a strategy, for tooltips.
const about = (name) => (STRATEGIES.find((s) => s.name === name) || {}).about || "";
const presetTitle = (p) => `${p.name === "bulls" ? "Bulls and Cows" : "Mastermind"}: ${p.description}`;
// `onApply` runs on "Apply" (and on picking a preset); without it the form only holds a choice.
function rulesForm(form, onApply) {
  const preset = el("select", { "aria-label": "Game" });
  for (const p of PRESETS) preset.append(el("option", { value: p.name, text: presetTitle(p) }));
  preset.append(el("option", { value: "custom", text: "Custom rules" }));
  const length = el("input", { type: "number", min: 1, max: 15, value: 4, "aria-label": "Code length" });
  const symbols = el("input", { value: "0123456789", size: 12, "aria-label": "Symbols", spellcheck: "false" });
  const repeats = el("input", { type: "checkbox" });
  const noLead = el("input", { type: "checkbox" });
  const custom = el("span", { class: "custom", hidden: true },
    el("label", {}, "Length ", length),
    el("label", {}, "Symbols ", symbols),
    el("label", {}, repeats, " repeats allowed"),
    el("label", {}, noLead, " first symbol may not lead"));
  form.append(el("label", {}, "Game ", preset), custom);
  if (onApply) form.append(el("button", { type: "submit", text: "Apply" }));
  preset.addEventListener("change", () => {
    custom.hidden = preset.value !== "custom";
    if (onApply && preset.value !== "custom") onApply();
  });
  form.addEventListener("submit", (e) => { e.preventDefault(); if (onApply) onApply(); });
  const custom_ = () => ({ length: Number(length.value), symbols: symbols.value, repeats: repeats.checked, no_leading: noLead.checked });
  return {
    // The request body's rules part.
    body: () => preset.value === "custom" ? { rules: custom_() } : { preset: preset.value },
    // The rules as the server describes them, for wording before it answers.
    rules: () => preset.value === "custom" ? custom_() : PRESETS.find((p) => p.name === preset.value).rules,
    label: () => preset.value === "custom" ? "custom rules" : preset.value,
  };
}

// ---- Play ---------------------------------------------------------------------------------

const play = {
  game: null,
  init() {
    this.form = rulesForm($("#play-rules"), () => this.newGame());
    $("#guess-form").addEventListener("submit", (e) => { e.preventDefault(); this.guess(); });
    $("#hint-btn").addEventListener("click", () => this.hint());
    $("#giveup-btn").addEventListener("click", () => this.giveUp());
    $("#newgame-btn").addEventListener("click", () => this.newGame());
    this.render();
  },
  // The server keeps a game only once someone plays: the first visit of this page starts one.
  enter() { if (!this.game && !this.starting) this.newGame(); },
  async newGame() {
    this.starting = true;
    $("#hint-out").textContent = "";
    try {
      this.game = await api("POST", "/api/games", this.form.body());
      setStatus($("#play-status"), "New game: make your first guess.");
      this.render();
      $("#guess-input").focus();
    } catch (err) {
      // Refused rules: no game is shown rather than the old one under the new rules.
      this.game = null;
      this.render();
      setStatus($("#play-status"), err.message, "error");
    }
  },
  async guess() {
    const input = $("#guess-input");
    if (!this.game) return;
    try {
      this.game = await api("POST", `/api/games/${this.game.id}/guesses`, { guess: input.value });
      input.value = "";
      $("#hint-out").textContent = "";
      this.render();
    } catch (err) { setStatus($("#play-status"), err.message, "error"); }
    input.focus();
  },
  async hint() {
    if (!this.game) return;
    const out = $("#hint-out");
    out.textContent = "Thinking…";
    delete out.dataset.remaining;
    try {
      const h = await api("GET", `/api/games/${this.game.id}/hint`);
      const a = h.advice;
      out.textContent = `${plural(h.remaining, "code")} still possible.` +
        (a ? ` Suggested guess: ${a.guess}, ${adviceSummary(a)}.` : "");
      out.dataset.guess = a ? a.guess : "";
      out.dataset.remaining = h.remaining;
    } catch (err) { out.textContent = err.message; }
  },
  async giveUp() {
    if (!this.game) return;
    try {
      this.game = await api("POST", `/api/games/${this.game.id}/give-up`);
      $("#hint-out").textContent = "";
      this.render();
    } catch (err) { setStatus($("#play-status"), err.message, "error"); }
  },
  render() {
    const g = this.game;
    const body = $("#play-history tbody");
    const over = !g || g.over;
    for (const id of ["#guess-input", "#guess-btn", "#hint-btn", "#giveup-btn"]) $(id).disabled = over;
    if (!g) {
      $("#play-info").textContent = "";
      body.replaceChildren();
      return;
    }
    const w = words(g.rules);
    $("#play .hit-head").textContent = w.hit;
    $("#play .near-head").textContent = w.near;
    $("#play-info").textContent = `${g.description}: ${g.space_size} possible secrets.`;
    body.replaceChildren(...g.turns.map((t, i) => el("tr", {},
      el("td", { text: i + 1 }), el("td", { class: "code", text: t.guess }),
      el("td", { text: t.bulls }), el("td", { text: t.cows }),
      el("td", {}, pegs(t.bulls, t.cows, g.rules.length, g.rules), " ", t.feedback))).reverse());
    if (g.won) setStatus($("#play-status"), `You won in ${plural(g.turns.length, "guess", "guesses")}! The secret was ${g.secret}.`, "win");
    else if (over) setStatus($("#play-status"), `The secret was ${g.secret}.`);
    else if (g.turns.length) {
      const last = g.turns[g.turns.length - 1];
      setStatus($("#play-status"), `${last.guess}: ${answerWords(last.bulls, last.cows, g.rules)}.`);
    }
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
    $("#feedback-form").addEventListener("submit", (e) => {
      e.preventDefault();
      const text = $("#feedback-input").value.trim();
      if (text) { $("#feedback-input").value = ""; this.answer(text); }
    });
  },
  enter() { if (!this.started) this.restart(); },
  restart() { this.started = true; this.history = []; this.step = null; this.ask(); },
  answer(feedback) {
    if (!this.step || stepStatus(this.step) !== "guess") return;
    this.history.push({ guess: this.step.advice.guess, feedback });
    this.ask();
  },
  async ask() {
    const status = $("#solver-status");
    setStatus(status, "Thinking…");
    status.dataset.status = "busy";
    this.rules = this.form.rules();
    const body = Object.assign(this.form.body(), { strategy: $("#strategy-select").value || undefined, history: this.history });
    try {
      this.step = await api("POST", "/api/solver", body);
      // The history as the server read it, so answers show in one form.
      this.history = this.step.turns.map((t) => ({ guess: t.guess, feedback: t.feedback }));
      this.render();
    } catch (err) {
      // A bad typed answer is the client's last turn: take it back so the game can go on.
      if (this.history.length && /^turn \d+:/.test(err.message)) {
        this.history.pop();
      } else {
        // Refused rules: show no game rather than the previous one.
        this.step = null;
        this.history = [];
        this.render();
      }
      setStatus(status, err.message, "error");
    }
  },
  render() {
    const s = this.step;
    const status = $("#solver-status");
    const kind = s ? stepStatus(s) : "none";
    status.dataset.status = kind;
    const w = words(this.rules);
    const buttons = $("#feedback-buttons");
    const other = $("#other-buttons");
    buttons.replaceChildren();
    other.replaceChildren();
    $("#repairs").replaceChildren();
    $("#other-feedback").hidden = true;
    $("#feedback-form").hidden = kind !== "guess";
    $("#feedback-input").placeholder = pegsGame(this.rules) ? "1B2C: 1 black, 2 white" : "1B2C or 12";
    $("#undo-btn").disabled = this.history.length === 0;
    $("#solver-turn").textContent = this.history.length + (kind === "guess" ? 1 : 0);
    $("#solver-turn-line").hidden = kind !== "guess";
    $("#solver-why").textContent = "";
    $("#solver-history tbody").replaceChildren(...turnRows(this.history, this.rules));
    if (!s) {
      $("#solver-guess").textContent = "?";
      $("#solver-remaining").textContent = "";
      return;
    }
    if (kind === "guess") {
      const a = s.advice;
      $("#solver-guess").textContent = a.guess;
      $("#solver-remaining").textContent = `${plural(s.remaining, "code")} still possible. What does it score?`;
      $("#solver-why").textContent = `This guess was ${adviceSummary(a)}.`;
      setStatus(status, "");
      for (const f of s.answers) {
        const label = pegsGame(this.rules) ? `${f.bulls} black ${f.cows} white` : f.feedback;
        if (f.remaining > 0) {
          buttons.append(el("button", {
            type: "button", "data-feedback": f.feedback, class: f.win ? "win" : "",
            title: `${answerWords(f.bulls, f.cows, this.rules)}: ${plural(f.remaining, "code")} left`,
            onclick: () => this.answer(f.feedback),
          }, f.win ? "Correct!" : label, el("small", { text: f.win ? label : `${f.remaining} left` })));
        } else {
          other.append(el("button", { type: "button", "data-feedback": f.feedback, onclick: () => this.answer(f.feedback), text: label }));
        }
      }
      $("#other-feedback").hidden = other.children.length === 0;
    } else if (kind === "solved") {
      const secret = s.turns[s.turns.length - 1].guess;
      $("#solver-guess").textContent = secret;
      $("#solver-remaining").textContent = "";
      setStatus(status, `Your secret is ${secret}: solved in ${plural(s.turns.length, "guess", "guesses")}.`, "win");
    } else if (kind === "contradiction") {
      $("#solver-guess").textContent = "?";
      $("#solver-remaining").textContent = `No code fits every answer. ${w.hit} and ${w.near.toLowerCase()} may have been miscounted: fix one answer below to go on.`;
      setStatus(status, "Contradiction: one of your answers must be wrong.", "error");
      // Fixing an answer keeps every later turn and goes on from the new position.
      $("#repairs").append(...repairBoxes(s.contradiction, this.rules, (turn, feedback) => {
        this.history[turn - 1].feedback = feedback;
        this.ask();
      }));
    } else {
      $("#solver-guess").textContent = "?";
      $("#solver-remaining").textContent = `${plural(s.remaining, "code")} still possible, but no guess came back.`;
    }
    const first = buttons.querySelector("button");
    if (first && document.activeElement === document.body) first.focus();
  },
};

const assistant = {
  history: [],
  step: null,
  started: false,
  init() {
    this.form = rulesForm($("#assistant-rules"), () => { this.history = []; this.ask(); });
    $("#assistant-form").addEventListener("submit", (e) => { e.preventDefault(); this.add(); });
    $("#assistant-undo").addEventListener("click", () => { this.history.pop(); this.ask(); });
    $("#assistant-clear").addEventListener("click", () => { this.history = []; this.ask(); });
    $("#assistant-use").addEventListener("click", () => {
      if (this.step && this.step.advice) $("#assistant-guess").value = this.step.advice.guess;
      $("#assistant-hits").focus();
    });
  },
  enter() { if (!this.started) { this.started = true; this.ask(); } },
  add() {
    const guess = $("#assistant-guess").value.trim();
    const feedback = `${Number($("#assistant-hits").value)}B${Number($("#assistant-nears").value)}C`;
    if (!guess) return;
    this.history.push({ guess, feedback });
    this.ask(true);
  },
  async ask(added = false) {
    const status = $("#assistant-status");
    setStatus(status, "Thinking…");
    status.dataset.status = "busy";
    this.rules = this.form.rules();
    try {
      this.step = await api("POST", "/api/solver", Object.assign(this.form.body(), { history: this.history }));
      this.history = this.step.turns.map((t) => ({ guess: t.guess, feedback: t.feedback }));
      if (added) {
        $("#assistant-guess").value = "";
        $("#assistant-hits").value = 0;
        $("#assistant-nears").value = 0;
        $("#assistant-guess").focus();
      }
      this.render();
    } catch (err) {
      // A typed turn the rules refuse is taken back, so it can be corrected and sent again.
      if (added) this.history.pop();
      else { this.step = null; this.history = []; this.render(); }
      setStatus(status, err.message, "error");
      status.dataset.status = "error";
    }
  },
  render() {
    const s = this.step;
    const w = words(this.rules);
    for (const n of document.querySelectorAll("#assistant .hit-word")) n.textContent = w.hit;
    for (const n of document.querySelectorAll("#assistant .near-word")) n.textContent = w.near;
    $("#assistant-hits").max = this.rules.length;
    $("#assistant-nears").max = this.rules.length;
    $("#assistant-undo").disabled = this.history.length === 0;
    $("#assistant-clear").disabled = this.history.length === 0;
    $("#assistant-history tbody").replaceChildren(...turnRows(this.history, this.rules));
    $("#assistant-repairs").replaceChildren();
    $("#assistant-advice").hidden = true;
    $("#assistant-left").replaceChildren();
    const status = $("#assistant-status");
    const kind = s ? stepStatus(s) : "none";
    status.dataset.status = kind;
    if (!s) return;
    const left = s.candidates.map((c) => el("span", { class: "code", text: c }));
    if (s.remaining > s.candidates.length) left.push(el("span", { text: `and ${s.remaining - s.candidates.length} more` }));
    $("#assistant-left").append(...left);
    $("#assistant-left-title").textContent = `Codes still possible: ${s.remaining}`;
    if (kind === "solved") {
      setStatus(status, `Solved in ${plural(s.turns.length, "guess", "guesses")}: the secret is ${s.turns[s.turns.length - 1].guess}.`, "win");
    } else if (kind === "contradiction") {
      setStatus(status, "No code fits every answer: one of them must be wrong. Fix one below to go on.", "error");
      $("#assistant-repairs").append(...repairBoxes(s.contradiction, this.rules, (turn, feedback) => {
        this.history[turn - 1].feedback = feedback;
        this.ask();
      }));
    } else if (kind === "guess") {
      const a = s.advice;
      setStatus(status, this.history.length ? `${plural(s.remaining, "code")} still possible.` : `Any first guess: ${plural(s.remaining, "code")} possible.`);
      $("#assistant-advice").hidden = false;
      $("#assistant-guess-out").textContent = a.guess;
      $("#assistant-advice").dataset.method = a.method;
      $("#assistant-advice").dataset.proven = a.proven_optimal ? "1" : "0";
      $("#assistant-explanation").textContent = a.explanation;
      $("#assistant-details").replaceChildren(...adviceDetails(a));
    } else {
      setStatus(status, `${plural(s.remaining, "code")} still possible.`);
    }
  },
};

// ---- decision trees, parsed here so any file in the `moo tree` format loads -----------------

function parseTree(data) {
  if (!data || typeof data !== "object") throw new Error("the file is not a JSON object");
  const rules = data.rules;
  if (!rules || !Number.isInteger(rules.length) || typeof rules.symbols !== "string") {
    throw new Error('missing "rules" with a "length" and "symbols"');
  }
  const alphabet = Array.from(rules.symbols);
  const length = rules.length;
  const win = `${length}B0C`;
  let nodes = 0;
  const check = (node, where) => {
    if (!node || typeof node.guess !== "string") throw new Error(`${where}: a node needs a "guess" string`);
    const syms = Array.from(node.guess);
    if (syms.length !== length || syms.some((c) => !alphabet.includes(c))) {
      throw new Error(`${where}: guess ${JSON.stringify(node.guess)} is not a ${length}-symbol code over ${rules.symbols}`);
    }
    if (++nodes > 2000000) throw new Error("the tree has more than 2000000 nodes");
    const kids = node.children || {};
    if (typeof kids !== "object" || Array.isArray(kids)) throw new Error(`${where}: "children" must be an object`);
    for (const [key, child] of Object.entries(kids)) {
      const m = /^(\d+)B(\d+)C$/.exec(key);
      if (!m || Number(m[1]) + Number(m[2]) > length) throw new Error(`${where}: ${JSON.stringify(key)} is not feedback like 1B2C for ${length} symbols`);
      if (key === win) throw new Error(`${where}: the winning answer ${win} must not have a child`);
      check(child, `${where} ${node.guess}=${key}`);
    }
  };
  check(data.root, "root");
  return { rules, alphabet, root: data.root, nodes };
}

// Standard scoring: bulls in place; cows = common symbols (with multiplicity) minus bulls.
function score(guess, secret) {
  let bulls = 0;
  const count = new Map();
  for (let i = 0; i < guess.length; i++) {
    if (guess[i] === secret[i]) bulls++;
    count.set(guess[i], (count.get(guess[i]) || 0) + 1);
  }
  let common = 0;
  for (const c of secret) {
    const n = count.get(c) || 0;
    if (n > 0) { common++; count.set(c, n - 1); }
  }
  return `${bulls}B${common - bulls}C`;
}

// Per-node counts: secrets under the node, the guesses they need from here, the depth histogram.
// A node's own guess is a secret there when it agrees with every answer on the path to it.
function stats(node, path, cache) {
  if (cache.has(node)) return cache.get(node);
  const guess = Array.from(node.guess);
  const kids = Object.entries(node.children || {});
  const here = kids.length === 0 || path.every(([g, f]) => score(g, guess) === f);
  const hist = here ? [1] : [];
  for (const [f, child] of kids) {
    const s = stats(child, path.concat([[guess, f]]), cache);
    s.hist.forEach((n, d) => { hist[d + 1] = (hist[d + 1] || 0) + n; });
  }
  for (let i = 0; i < hist.length; i++) hist[i] = hist[i] || 0;
  const secrets = hist.reduce((a, b) => a + b, 0);
  const total = hist.reduce((a, n, d) => a + n * (d + 1), 0);
  const result = { secrets, total, worst: hist.length, hist, here };
  cache.set(node, result);
  return result;
}

function barChart(series, title, width) {
  // series: [{name, hist}] where hist[i] = secrets solved with i + 1 guesses.
  const colors = ["#2f6f4f", "#c0392b", "#e8a33d", "#3b6ea5", "#7d4f9e", "#4f9e94", "#9e7d4f", "#555"];
  const maxLen = Math.max(1, ...series.map((s) => s.hist.length));
  const maxVal = Math.max(1, ...series.map((s) => Math.max(0, ...s.hist)));
  const W = Math.max(300, Math.min(900, width || 640)), H = 260, left = 50, bottom = 40, top = 28 + 14 * Math.ceil(series.length / 3);
  const plotW = W - left - 10, plotH = H - top - bottom;
  const group = plotW / maxLen, bar = Math.max(2, (group - 6) / series.length);
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  const add = (tag, attrs, text) => {
    const e = document.createElementNS(ns, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    svg.append(e);
    return e;
  };
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", title);
  add("text", { x: 8, y: 14, "font-weight": "600" }, title);
  series.forEach((s, k) => {
    const x = 8 + (k % 3) * Math.floor((W - 16) / 3), y = 30 + 14 * Math.floor(k / 3);
    add("rect", { x, y: y - 9, width: 10, height: 10, fill: colors[k % colors.length] });
    add("text", { x: x + 14, y }, s.name);
  });
  for (let t = 0; t <= 4; t++) {
    const v = Math.round((maxVal * t) / 4), y = top + plotH - (plotH * v) / maxVal;
    add("line", { x1: left, x2: W - 10, y1: y, y2: y, stroke: "#e4e0d4" });
    add("text", { x: left - 6, y: y + 4, "text-anchor": "end" }, v);
  }
  for (let d = 0; d < maxLen; d++) {
    const gx = left + d * group + 3;
    series.forEach((s, k) => {
      const v = s.hist[d] || 0, h = (plotH * v) / maxVal;
      const r = add("rect", { x: gx + k * bar, y: top + plotH - h, width: Math.max(1, bar - 1), height: h, fill: colors[k % colors.length] });
      const tip = document.createElementNS(ns, "title");
      tip.textContent = `${s.name}: ${v} secrets in ${d + 1} guesses`;
      r.append(tip);
    });
    add("text", { x: gx + (group - 6) / 2, y: top + plotH + 14, "text-anchor": "middle" }, d + 1);
  }
  add("text", { x: left + plotW / 2, y: H - 6, "text-anchor": "middle" }, "guesses needed");
  return svg;
}

const explorer = {
  tree: null,
  path: [],
  cache: new WeakMap(),
  entered: false,
  // Redraws of the charts at the current width, so text stays legible on a phone.
  charts: {},
  init() {
    let pending = null;
    window.addEventListener("resize", () => {
      clearTimeout(pending);
      pending = setTimeout(() => Object.values(this.charts).forEach((draw) => draw()), 100);
    });
    $("#tree-load").addEventListener("click", () => this.loadSelected());
    $("#tree-file").addEventListener("change", (e) => this.loadFile(e.target.files[0]));
    $("#bench-run").addEventListener("click", () => this.bench());
    this.treeRules = rulesForm($("#tree-rules"));
    this.benchRules = rulesForm($("#bench-rules"));
    // Only deterministic strategies have a decision tree.
    for (const s of STRATEGIES.filter((x) => x.deterministic)) {
      $("#tree-select").append(el("option", { value: s.name, text: `${s.name}: ${s.about}` }));
    }
  },
  enter() {},
  async loadSelected() {
    const name = $("#tree-select").value;
    if (!name) return;
    const label = `${name} on ${this.treeRules.label()}`;
    setStatus($("#tree-status"), `Building the tree of ${label}…`);
    try {
      this.show(await api("POST", "/api/trees", Object.assign(this.treeRules.body(), { strategy: name })), label);
    } catch (err) { this.fail(err.message); }
  },
  // A failed load leaves no tree on show, so nothing on screen belongs to an earlier one.
  fail(message) {
    this.tree = null;
    this.path = [];
    $("#tree-view").hidden = true;
    delete this.charts.tree;
    setStatus($("#tree-status"), message, "error");
  },
  loadFile(file) {
    if (!file) return;
    const reader = new FileReader();
    reader.onload = () => {
      try { this.show(JSON.parse(reader.result), file.name); }
      catch (err) { this.fail(`${file.name}: ${err.message}`); }
    };
    reader.readAsText(file);
  },
  show(data, label) {
    try {
      this.tree = parseTree(data);
    } catch (err) {
      this.fail(`${label}: ${err.message}`);
      return;
    }
    this.cache = new WeakMap();
    this.path = [];
    const s = stats(this.tree.root, [], this.cache);
    const r = this.tree.rules;
    setStatus($("#tree-status"), `Loaded ${label}.`);
    $("#tree-summary").textContent = `${r.length} symbol${r.length === 1 ? "" : "s"} from ${r.symbols}${r.repeats ? ", repeats allowed" : ""}: ` +
      `${s.secrets} secrets, ${s.total} guesses in all, ${(s.total / s.secrets).toFixed(4)} on average, at most ${s.worst}; ${this.tree.nodes} nodes.`;
    $("#tree-view").hidden = false;
    this.charts.tree = () => $("#tree-histogram").replaceChildren(
      barChart([{ name: label, hist: s.hist }], "Secrets by guesses needed", $("#tree-histogram").clientWidth));
    this.charts.tree();
    this.render();
  },
  // The node reached by the current path, and the (guess, answer) pairs leading to it.
  current() {
    let node = this.tree.root;
    const pairs = [];
    for (const f of this.path) {
      pairs.push([Array.from(node.guess), f]);
      node = node.children[f];
    }
    return { node, pairs };
  },
  render() {
    const { node, pairs } = this.current();
    const s = stats(node, pairs, this.cache);
    const crumbs = [el("button", { type: "button", onclick: () => { this.path = []; this.render(); }, "aria-current": this.path.length === 0 ? "step" : false }, "root")];
    let walk = this.tree.root;
    this.path.forEach((f, i) => {
      const label = `${walk.guess}=${f}`;
      walk = walk.children[f];
      crumbs.push(el("button", { type: "button", "aria-current": i === this.path.length - 1 ? "step" : false,
        onclick: () => { this.path = this.path.slice(0, i + 1); this.render(); } }, label));
    });
    $("#tree-path").replaceChildren(...crumbs);
    $("#node-info").textContent = `Level ${this.path.length + 1}: guess ${node.guess}. ${s.secrets} secret${s.secrets === 1 ? "" : "s"} reach this node, ` +
      `needing ${s.total} guesses from here (${(s.total / s.secrets).toFixed(3)} on average, at most ${s.worst}).` +
      (s.here ? ` ${node.guess} itself is one of them and is solved here.` : "");
    const rows = Object.entries(node.children || {}).map(([f, child]) => {
      const c = stats(child, pairs.concat([[Array.from(node.guess), f]]), this.cache);
      return el("tr", {},
        el("td", { class: "code", text: f }), el("td", { text: c.secrets }), el("td", { text: c.total }),
        el("td", { text: (c.total / c.secrets).toFixed(3) }), el("td", { text: c.worst }),
        el("td", {}, el("button", { type: "button", "data-feedback": f,
          onclick: () => { this.path.push(f); this.render(); $("#tree-children button")?.focus(); } }, child.guess)));
    });
    if (s.here && Object.keys(node.children || {}).length) {
      rows.unshift(el("tr", {}, el("td", { class: "code", text: `${this.tree.rules.length}B0C` }), el("td", { text: 1 }),
        el("td", { text: 1 }), el("td", { text: "1.000" }), el("td", { text: 1 }), el("td", { text: "solved" })));
    }
    $("#tree-children tbody").replaceChildren(...rows);
  },
  // One request per strategy, so each gets the server's whole time limit and the chart grows
  // as results arrive.
  async bench() {
    const status = $("#bench-status");
    const rules = this.benchRules.body();
    const label = this.benchRules.label();
    const done = [];
    const failed = [];
    delete status.dataset.done;
    delete this.charts.bench;
    $("#bench-chart").replaceChildren();
    $("#bench-run").disabled = true;
    $("#bench-table tbody").replaceChildren();
    $("#bench-table").hidden = false;
    for (const name of STRATEGIES.map((x) => x.name)) {
      setStatus(status, `Playing every secret with ${name}…`);
      let r;
      try {
        r = (await api("POST", "/api/bench", Object.assign({ strategies: [name] }, rules))).results[0];
      } catch (err) {
        // The strategies come from the server's own list, so a 422 is about the rules: say it once.
        if (err.status === 422) {
          setStatus(status, err.message, "error");
          status.dataset.done = "1";
          $("#bench-table").hidden = true;
          $("#bench-run").disabled = false;
          return;
        }
        r = { strategy: name, error: err.message };
      }
      const row = r.error
        ? el("tr", { "data-strategy": r.strategy }, el("td", { text: r.strategy }), el("td", { colspan: 5, class: "error", text: r.error }))
        : el("tr", { "data-strategy": r.strategy },
          el("td", { text: r.strategy, title: about(r.strategy) }), el("td", { text: r.gave_up ? `${r.secrets} (${r.gave_up} unsolved)` : r.secrets }), el("td", { text: r.total }),
          el("td", { text: r.average.toFixed(4) }), el("td", { text: r.max }), el("td", { text: `${Math.round(r.seconds * 1000)} ms` }));
      $("#bench-table tbody").append(row);
      if (r.error) { failed.push(r.strategy); continue; }
      done.push(r);
      const title = `Secrets by guesses needed (${label})`;
      // Baselines that need hundreds of guesses would flatten the others: chart the rest.
      const shown = done.filter((x) => x.max <= 20);
      this.charts.bench = () => $("#bench-chart").replaceChildren(barChart(
        shown.map((x) => ({ name: x.strategy, hist: x.histogram })), title, $("#bench-chart").clientWidth));
      this.charts.bench();
    }
    const hidden = done.filter((x) => x.max > 20).map((x) => x.strategy);
    setStatus(status, `${done.length} strateg${done.length === 1 ? "y" : "ies"} measured` +
      (failed.length ? `, ${failed.length} failed (${failed.join(", ")})` : "") +
      (hidden.length ? `; not charted, needing over 20 guesses: ${hidden.join(", ")}` : "") + ".");
    status.dataset.done = "1";
    $("#bench-run").disabled = false;
  },
};

// ---- start --------------------------------------------------------------------------------

async function start() {
  for (const table of document.querySelectorAll("table.turns")) {
    table.prepend(el("thead", {}, el("tr", {}, ...["#", "Guess", "Answer"].map((h) => el("th", { text: h })))));
  }
  try {
    PRESETS = (await api("GET", "/api/presets")).presets;
    const strategies = await api("GET", "/api/strategies");
    STRATEGIES = strategies.strategies;
    // No strategy named: the server's advisor picks each guess (exact when it can).
    $("#strategy-select").append(el("option", { value: "", text: "best guess: exact when there is time" }));
    for (const s of strategies.strategies) {
      $("#strategy-select").append(el("option", { value: s.name, text: `${s.name}: ${s.about}` }));
    }
  } catch (err) {
    setStatus($("#play-status"), `The server did not answer: ${err.message}`, "error");
    return;
  }
  play.init();
  solver.init();
  assistant.init();
  explorer.init();
  showPage();
  document.body.dataset.ready = "1";
}
start();
