// The rules form (one per page) and the catalog of games and ways of playing it offers.

import { el } from "./dom.js";

// The server's catalog: its games and its ways of playing, filled once at start-up.
export let PRESETS = [];
export let STRATEGIES = [];
export function setCatalog(presets, strategies) {
  PRESETS = presets;
  STRATEGIES = strategies;
}
const presetTitle = (p) => `${p.name === "bulls" ? "Bulls and Cows" : "Mastermind"}: ${p.description}`;
// `onApply` runs on "Apply" and on picking a game; `guard()`, when it returns false, keeps the
// old choice (a game in progress the player did not want to lose).
export function rulesForm(form, onApply, guard = () => true) {
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
