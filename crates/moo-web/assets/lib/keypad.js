// The on-screen keypad under a guess box: a key per symbol of the game (a coloured one in colour
// games), then delete and enter, so a phone needs no keyboard of its own. Which symbols no code
// left holds is the engine's answer (`ruled_out` in a game or duel), never worked out here; their
// keys are marked, not disabled, as a ruled-out symbol is still a fair filler in a guess.
//
// The keypad is one stop of the Tab order (a toolbar): the arrow keys walk it, Enter or Space
// presses a key, and a symbol typed while it has the focus goes into the box as on the key.

import { el } from "./dom.js";
import { colourGame, colourOf, colourStyle } from "./words.js";

// Fills `box` for `rules`: `input` is the guess box, `ruledOut` the engine's symbols (a string,
// or null when it did not say), `submit()` plays the guess. `rules` null hides the keypad.
export function keypad(box, input, rules, ruledOut, submit) {
  box.hidden = !rules;
  if (!rules) { box.replaceChildren(); return; }
  const symbols = Array.from(rules.symbols);
  const out = new Set(Array.from(ruledOut || ""));
  const colours = colourGame(rules);
  const type = (s) => { if (Array.from(input.value).length < rules.length) input.value += s; };
  const erase = () => { input.value = Array.from(input.value).slice(0, -1).join(""); };
  // Kept across redraws (a guess played from the keypad redraws it): the focus stays put.
  const focused = box.contains(document.activeElement) ? document.activeElement.dataset.key : null;
  const keys = symbols.map((s) => {
    const name = colours ? `${s} (${colourOf(rules, s)[0]})` : s;
    return el("button", {
      type: "button", class: "key" + (colours ? " cbtn" : "") + (out.has(s) ? " out" : ""), "data-symbol": s, "data-key": s,
      style: colours ? colourStyle(rules, s) : null, "aria-label": `${name}${out.has(s) ? ", ruled out: no code left holds it" : ""}`,
      text: s, onclick: () => type(s),
    });
  });
  keys.push(el("button", { type: "button", class: "key key-back secondary", "data-key": "back", "aria-label": "Delete the last symbol", text: "⌫", onclick: erase }));
  keys.push(el("button", { type: "button", class: "key key-enter", "data-key": "enter", "aria-label": "Play this guess", text: "↵", onclick: submit }));
  const current = keys.find((k) => k.dataset.key === focused) || keys[0];
  for (const k of keys) k.tabIndex = k === current ? 0 : -1;
  box.setAttribute("role", "toolbar");
  box.setAttribute("aria-label", colours ? "Colours to add to your guess" : "Symbols to add to your guess");
  box.replaceChildren(...keys);
  if (focused) current.focus();
  box.onkeydown = (e) => walk(e, keys, symbols, type, erase);
}

// The keyboard on the keypad: arrows and Home/End move the focus, Backspace deletes, and a
// symbol of the game (in either case, as the engine reads codes) types it.
function walk(e, keys, symbols, type, erase) {
  const i = keys.indexOf(document.activeElement);
  const to = { ArrowRight: i + 1, ArrowDown: i + 1, ArrowLeft: i - 1, ArrowUp: i - 1, Home: 0, End: keys.length - 1 }[e.key];
  if (to !== undefined) {
    const k = keys[(to + keys.length) % keys.length];
    for (const x of keys) x.tabIndex = x === k ? 0 : -1;
    k.focus();
  } else if (e.key === "Backspace") erase();
  else if (e.key.length === 1 && symbols.some((s) => s.toLowerCase() === e.key.toLowerCase())) {
    type(symbols.find((s) => s === e.key) || symbols.find((s) => s.toLowerCase() === e.key.toLowerCase()));
  } else return;
  e.preventDefault();
}
