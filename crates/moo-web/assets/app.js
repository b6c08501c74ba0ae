// moo web UI: plain JavaScript modules, no build step. Pages switched by the URL hash.
//
// The page holds no game rules: scoring, checking trees, counting and choosing guesses all come
// from the engine, `moo serve` or the same core compiled to WebAssembly (lib/api.js). What it
// keeps is the player's own input (rules, guesses, answers), in local storage and in the URL, so
// a reload or a shared link shows the same game.
//
// This module starts the page: it builds the nav and each page's section from the registry
// (pages.js), fetches the catalog of games and ways of playing, and routes the hash to a page.

import { PAGES } from "./pages.js";
import { $, el, setStatus } from "./lib/dom.js";
import { api, BACKEND, cancelAll, onBusy } from "./lib/api.js";
import { hashState, stored } from "./lib/state.js";
import { setCatalog } from "./lib/forms.js";

// ---- pages and the URL ---------------------------------------------------------------------

// `#page?key=value&...`: an unknown or missing page is the first one.
const pageOf = (id) => PAGES.find((p) => p.id === id) || PAGES[0];

let current = null;
function showPage() {
  const { page: id, params } = hashState();
  const page = pageOf(id);
  for (const p of PAGES) {
    $("#" + p.id).hidden = p !== page;
    const link = $("#nav-" + p.id);
    if (p === page) link.setAttribute("aria-current", "page"); else link.removeAttribute("aria-current");
  }
  document.title = `${page.title} · moo`;
  // A link with state wins; a bare page link restores what this browser kept.
  const linked = params.toString() !== "";
  const state = linked ? params : new URLSearchParams(stored(page.id) || "");
  // A link to another state than the one on show (pasted into the address bar of an open page)
  // counts as a new arrival.
  const entering = current !== page.id || (linked && params.toString() !== (stored(page.id) || ""));
  current = page.id;
  page.enter(state, entering);
}
window.addEventListener("hashchange", showPage);

// The nav links and each page's section; the first page shows until start-up routes the hash.
function build() {
  const nav = $("header nav");
  const main = $("main");
  PAGES.forEach((p, i) => {
    nav.append(el("a", { href: `#${p.id}`, id: `nav-${p.id}`, text: p.title }));
    const section = el("section", { id: p.id, class: "page", "aria-labelledby": `${p.id}-title`, hidden: i > 0 });
    section.innerHTML = p.markup;
    main.append(section);
  });
}

// A bar with a Cancel button once a request has taken a moment (a short hint never shows it).
function busyBar() {
  let timer = null;
  const bar = $("#busy");
  $("#busy-cancel").addEventListener("click", cancelAll);
  onBusy((inFlight) => {
    clearTimeout(timer);
    if (inFlight === 0) {
      // A page that sends its requests one after another (the bench: one per way of playing)
      // would hide the bar, and the Cancel a player is reaching for, between two of them: it
      // goes only once nothing has been asked for a moment.
      timer = setTimeout(() => { bar.hidden = true; }, 300);
      return;
    }
    if (bar.hidden) timer = setTimeout(() => { bar.hidden = false; }, 400);
  });
}

// ---- start --------------------------------------------------------------------------------

async function start() {
  build();
  busyBar();
  for (const table of document.querySelectorAll("table.turns")) {
    table.prepend(el("thead", {}, el("tr", {}, ...["#", "Guess", "Answer"].map((h) => el("th", { text: h })))));
  }
  try {
    const presets = (await api("GET", "/api/presets")).presets;
    const strategies = (await api("GET", "/api/strategies")).strategies;
    setCatalog(presets, strategies);
  } catch (err) {
    const who = BACKEND === "wasm" ? "The engine did not start" : "The server did not answer";
    setStatus($("#play-status"), `${who}: ${err.message}`, "error");
    return;
  }
  // Phones: the settings fold away so the game itself comes first.
  if (window.matchMedia("(max-width: 560px)").matches) {
    for (const d of document.querySelectorAll("details.settings")) d.open = false;
  }
  for (const page of PAGES) page.init();
  let pending = null;
  window.addEventListener("resize", () => {
    clearTimeout(pending);
    pending = setTimeout(() => PAGES.forEach((p) => Object.values(p.charts || {}).forEach((draw) => draw())), 100);
  });
  showPage();
  // When a guess can first be typed, for the static site's first-load benchmark.
  performance.mark("moo-ready");
  document.body.dataset.ready = "1";
  // The static site works offline after one visit: its service worker keeps every file (the
  // shipped trees too), fetched once the page is up so they do not slow its first load.
  if (BACKEND === "wasm" && "serviceWorker" in navigator) {
    navigator.serviceWorker.register("sw.js").catch(() => { /* served without it: online only */ });
  }
}
start();
