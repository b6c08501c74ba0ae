// A page's state lives in the URL and in local storage, so a reload or a shared link shows the
// same game.

// `#page?key=value&...`: the page as written (app.js takes an unknown one for the first page) and
// its saved state.
export function hashState() {
  const raw = location.hash.slice(1);
  const q = raw.indexOf("?");
  const page = q < 0 ? raw : raw.slice(0, q);
  return { page, params: new URLSearchParams(q < 0 ? "" : raw.slice(q + 1)) };
}
// Writes a page's state into the URL without a new history entry or a hashchange.
export function saveState(page, params) {
  const query = params.toString();
  const hash = `#${page}${query ? "?" + query : ""}`;
  if (location.hash !== hash) history.replaceState(null, "", hash);
  try { localStorage.setItem(`moo.${page}`, query); } catch (_) { /* private mode */ }
}
export const stored = (page) => { try { return localStorage.getItem(`moo.${page}`); } catch (_) { return null; } };
