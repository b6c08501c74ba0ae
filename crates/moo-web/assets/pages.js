// The page registry: the nav, the sections, the routing and start-up are all built from this
// list, in this order (the first page is the one a bare address opens). A page is a module
// pages/NAME.js exporting, under its own NAME, an object with its `id`, nav `title`, section
// `markup`, and its `init()` (once, after start-up) and `enter(state, entering)` (each time it
// is shown); one with `charts` (functions drawing its charts) gets them redrawn when the window
// is resized. Adding a page is its file and its name here.
const NAMES = ["play", "daily", "duel", "stats", "solver", "assistant", "review", "explorer", "bench"];

export const PAGES = await Promise.all(NAMES.map(async (name) => (await import(`./pages/${name}.js`))[name]));
