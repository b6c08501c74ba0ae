// A win that feels like one: a card with a headline that takes the focus (so a screen reader
// says it and the keyboard is at the next things to do), with a short entrance the stylesheet
// leaves out when the system asks for less motion. And sharing, by the phone's share sheet
// where there is one, else the clipboard.

import { setStatus } from "./dom.js";

// Shows `card` with `headline` in `title`, which takes the focus.
export function celebrate(card, title, headline) {
  title.textContent = headline;
  // Shown afresh, so its entrance plays again for a second win on the same page.
  card.hidden = true;
  void card.offsetWidth;
  card.hidden = false;
  title.focus();
}

// Shares `text` and `link`; `status` says what happened.
export async function share(text, link, status) {
  if (navigator.share) {
    try { await navigator.share({ text, url: link }); return; } catch (err) { if (err.name === "AbortError") return; }
  }
  try {
    await navigator.clipboard.writeText(`${text} ${link}`);
    setStatus(status, "Copied: paste it wherever you like.");
  } catch (_) {
    setStatus(status, `Could not copy by itself: copy this link: ${link}`, "error");
  }
}
