// The DOM helpers and number wording every page uses.

export const $ = (sel, root = document) => root.querySelector(sel);
export const el = (tag, attrs = {}, ...kids) => {
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

export function setStatus(node, text, kind = "") {
  node.textContent = text;
  node.className = "status" + (kind ? " " + kind : "");
}

// Thousands separators, also for the big counts the server sends as strings.
export const num = (n) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
export const plural = (n, one, many = one + "s") => `${num(n)} ${n === 1 || n === "1" ? one : many}`;
export const fixed = (x, digits) => num(x.toFixed(digits).split(".")[0]) + (digits ? "." + x.toFixed(digits).split(".")[1] : "");
