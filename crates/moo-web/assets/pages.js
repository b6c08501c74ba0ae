// The page registry: the nav, the sections, the routing and start-up are all built from this
// list, in this order (the first page is the one a bare address opens). A page is a module
// under pages/ that exports an object with its `id`, nav `title`, section `markup`, and its
// `init()` (once, after start-up) and `enter(state, entering)` (each time it is shown); one with
// `charts` (functions drawing its charts) gets them redrawn when the window is resized.
import { play } from "./pages/play.js";
import { solver } from "./pages/solver.js";
import { assistant } from "./pages/assistant.js";
import { review } from "./pages/review.js";
import { explorer } from "./pages/explorer.js";
import { bench } from "./pages/bench.js";

export const PAGES = [play, solver, assistant, review, explorer, bench];
