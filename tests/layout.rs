//! The layout rules, checked on the sources of every crate of the workspace so they cannot erode
//! unnoticed: files a reader can hold, functions that fit on a screen, and no module that imports
//! another which imports it back, at any depth of the module tree.
//!
//! What already breaks a rule is listed below, each entry with its reason, so the test passes
//! today and fails on anything new; an entry that no longer applies fails too, so the lists only
//! shrink.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// Most lines of code (neither blank nor comment) a file may have.
const MAX_FILE_LINES: usize = 700;
/// Most lines a function may have, from its `fn` line to its closing brace.
const MAX_FN_LINES: usize = 80;

/// Files over [`MAX_FILE_LINES`] lines of code, and why they may be for now.
const LONG_FILES: &[(&str, &str)] = &[
    (
        "crates/moo-core/src/strategy/partition.rs",
        "the heuristics that score a partition share one scorer; the sampled scoring of large \
         spaces can move to a file of its own",
    ),
    (
        "crates/moo-crack/src/intervals.rs",
        "the interval cracker with its known-answer tests, which are two thirds of it",
    ),
];

/// Functions over [`MAX_FN_LINES`] lines (file, name), and why they may be for now.
const LONG_FUNCTIONS: &[(&str, &str, &str)] = &[(
    "crates/moo-crack/src/intervals.rs",
    "score_test",
    "a known-answer test whose table of cases is most of its length",
)];

/// Modules that import each other in a cycle (the source folder, the members of the cycle), and
/// why they may for now.
const CYCLES: &[(&str, &[&str], &str)] = &[
    (
        "crates/moo-py/src",
        &["history", "rules"],
        "Rules.history builds a History, whose turns hold the Feedback type of rules.rs",
    ),
    (
        "crates/moo-service/src",
        &["games", "play"],
        "the store takes its not-found error from play.rs, where it belongs with the store",
    ),
];

/// The source folders of the workspace: the binary's and each crate's, with the names by which
/// their code reaches the crate's root.
fn crates() -> Vec<(String, Vec<String>)> {
    let mut out = vec![("src".to_string(), vec!["crate".to_string()])];
    let mut dirs: Vec<PathBuf> = fs::read_dir(repo().join("crates"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("src").is_dir())
        .collect();
    dirs.sort();
    for dir in dirs {
        let name = dir.file_name().unwrap().to_str().unwrap().to_string();
        out.push((
            format!("crates/{name}/src"),
            vec!["crate".to_string(), name.replace('-', "_")],
        ));
    }
    out
}

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let entries =
            fs::read_dir(&d).unwrap_or_else(|e| panic!("cannot list {}: {e}", d.display()));
        for entry in entries {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|x| x == "rs") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

fn read(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

fn shown(path: &Path) -> String {
    path.strip_prefix(repo()).unwrap().display().to_string()
}

/// Lines that are neither blank nor only a comment.
fn lines_of_code(text: &str) -> usize {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("//"))
        .count()
}

/// Every function of rustfmt-formatted source longer than `max` lines, as (name, first line,
/// length): a function runs from its `fn` line to the first line that closes a brace at the
/// `fn`'s indentation.
fn long_functions(text: &str, max: usize) -> Vec<(String, usize, usize)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let trimmed = line.trim_start();
        let indent = line.len() - trimmed.len();
        let mut head = trimmed;
        for prefix in [
            "pub(crate) ",
            "pub(super) ",
            "pub ",
            "const ",
            "async ",
            "unsafe ",
            "extern \"C\" ",
        ] {
            head = head.strip_prefix(prefix).unwrap_or(head);
        }
        let Some(rest) = head.strip_prefix("fn ") else {
            continue;
        };
        if trimmed.ends_with(';') {
            continue; // a declaration in a trait, without a body
        }
        let name: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        let close = format!("{}}}", " ".repeat(indent));
        if let Some(end) = lines[i..].iter().position(|l| l.trim_end() == close) {
            if end + 1 > max {
                out.push((name, i + 1, end + 1));
            }
        }
    }
    out
}

/// The problems of `found` against an allow-list whose entries `allowed` names: what is found
/// and not allowed, and what is allowed and no longer found.
fn against(found: &BTreeMap<String, String>, allowed: &[String], what: &str) -> Vec<String> {
    let mut problems: Vec<String> = found
        .iter()
        .filter(|(key, _)| !allowed.contains(key))
        .map(|(_, problem)| problem.clone())
        .collect();
    for key in allowed.iter().filter(|k| !found.contains_key(*k)) {
        problems.push(format!(
            "{key} is in {what} but keeps the rule now: remove it from the list"
        ));
    }
    problems
}

#[test]
fn files_are_short_and_functions_fit_on_a_screen() {
    let (mut files, mut functions) = (BTreeMap::new(), BTreeMap::new());
    for (dir, _) in crates() {
        for path in rust_files(&repo().join(dir)) {
            let text = read(&path);
            let file = shown(&path);
            let lines = lines_of_code(&text);
            if lines > MAX_FILE_LINES {
                files.insert(
                    file.clone(),
                    format!("{file}: {lines} lines of code (at most {MAX_FILE_LINES})"),
                );
            }
            for (name, at, len) in long_functions(&text, MAX_FN_LINES) {
                functions.insert(
                    format!("{file} fn {name}"),
                    format!("{file}:{at}: fn {name} is {len} lines (at most {MAX_FN_LINES})"),
                );
            }
        }
    }
    let allowed_files: Vec<String> = LONG_FILES.iter().map(|(f, _)| f.to_string()).collect();
    let allowed_functions: Vec<String> = LONG_FUNCTIONS
        .iter()
        .map(|(f, name, _)| format!("{f} fn {name}"))
        .collect();
    let mut problems = against(&files, &allowed_files, "LONG_FILES");
    problems.extend(against(&functions, &allowed_functions, "LONG_FUNCTIONS"));
    assert!(
        problems.is_empty(),
        "split these up:\n{}",
        problems.join("\n")
    );
}

#[test]
fn long_functions_are_found() {
    let body = "    x();\n".repeat(MAX_FN_LINES);
    let text =
        format!("impl A {{\n    pub(crate) fn big() {{\n{body}    }}\n    fn small() {{}}\n}}\n");
    assert_eq!(
        long_functions(&text, MAX_FN_LINES),
        vec![("big".to_string(), 2, MAX_FN_LINES + 2)]
    );
}

/// Source without comments and without the tests (a `#[cfg(test)]` module, conventionally at the
/// end of a file, and test files: `tests.rs` or under a `tests` folder): tests may reach anywhere.
fn code_of(path: &Path, root: &Path) -> String {
    let inside = path.strip_prefix(root).unwrap_or(path);
    if inside
        .components()
        .any(|c| c.as_os_str() == "tests" || c.as_os_str() == "tests.rs")
    {
        return String::new();
    }
    let text = read(path);
    let text = match text.find("#[cfg(test)]\nmod ") {
        Some(at) => &text[..at],
        None => &text,
    };
    text.lines()
        .map(|l| l.split(" // ").next().unwrap_or(l))
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The module path of a file under a crate's source folder: `tree/jobs/plan.rs` and
/// `tree/jobs/plan/mod.rs` are `tree::jobs::plan`; `lib.rs` and `main.rs` the crate's root.
fn module_of(rel: &Path) -> Vec<String> {
    let mut parts: Vec<String> = rel
        .iter()
        .map(|c| c.to_str().unwrap().to_string())
        .collect();
    let last = parts.pop().unwrap();
    let stem = last.strip_suffix(".rs").unwrap_or(&last);
    if !(parts.is_empty() && ["lib", "main"].contains(&stem) || stem == "mod") {
        parts.push(stem.to_string());
    }
    parts
}

/// The paths of a `use` tree such as `a::{b, c::{self, d}}`, each as its segments.
fn use_paths(tree: &str) -> Vec<Vec<String>> {
    fn expand(prefix: &[String], tree: &str, out: &mut Vec<Vec<String>>) {
        let tree = tree.trim();
        // Split at the first `{` that ends the prefix: `a::b::{...}`.
        let (head, group) = match tree.find('{') {
            Some(at) if tree.ends_with('}') => (&tree[..at], Some(&tree[at + 1..tree.len() - 1])),
            _ => (tree, None),
        };
        let mut path = prefix.to_vec();
        for seg in head.split("::").map(str::trim) {
            let seg = seg.split(" as ").next().unwrap().trim();
            if !seg.is_empty() && seg != "self" {
                path.push(seg.to_string());
            }
        }
        let Some(group) = group else {
            out.push(path);
            return;
        };
        let mut depth = 0;
        let mut start = 0;
        for (i, c) in group.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    expand(&path, &group[start..i], out);
                    start = i + 1;
                }
                _ => {}
            }
        }
        if !group[start..].trim().is_empty() {
            expand(&path, &group[start..], out);
        }
    }
    let mut out = Vec::new();
    expand(&[], tree, &mut out);
    out
}

/// Every path `code` names from the crate's root, `super` or `self`: those of its `use` items,
/// and those written out in place (`crate::a::b(..)`), each as its segments.
fn named_paths(code: &str, roots: &[String]) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut rest = String::new();
    let mut text = code;
    // `use` items, whose trees may spread over lines, are expanded; the rest is scanned.
    while let Some(at) = text.find("use ") {
        let starts_item = text[..at]
            .chars()
            .next_back()
            .is_none_or(|c| c.is_whitespace() || c == ';' || c == '{' || c == '}' || c == ')');
        let Some(end) = text[at..].find(';').filter(|_| starts_item) else {
            rest.push_str(&text[..at + 4]);
            text = &text[at + 4..];
            continue;
        };
        rest.push_str(&text[..at]);
        out.extend(use_paths(&text[at + 4..at + end]));
        text = &text[at + end + 1..];
    }
    rest.push_str(text);
    let starts: Vec<String> = roots
        .iter()
        .map(String::as_str)
        .chain(["super", "self"])
        .map(|r| format!("{r}::"))
        .collect();
    let bytes = rest.as_bytes();
    for start in &starts {
        for (at, _) in rest.match_indices(start.as_str()) {
            let before = at.checked_sub(1).map(|i| bytes[i] as char);
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
                continue;
            }
            let path: Vec<String> = rest[at..]
                .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                .next()
                .unwrap()
                .split("::")
                .filter(|s| !s.is_empty())
                .map(str::to_string)
                .collect();
            out.push(path);
        }
    }
    out
}

/// The module `path` leads to from `module` (the longest prefix that is a module of `modules`),
/// or `None` if it leaves the crate.
fn target(
    module: &[String],
    path: &[String],
    roots: &[String],
    modules: &BTreeSet<Vec<String>>,
) -> Option<Vec<String>> {
    let mut segments = path.iter().peekable();
    let mut base: Vec<String> = match segments.peek()?.as_str() {
        r if roots.iter().any(|x| x == r) => {
            segments.next();
            Vec::new()
        }
        // Each `super` below takes one step up from here: a folder's `mod.rs` is the folder's
        // module, so its `super` is the folder's parent, as the compiler reads it.
        "self" | "super" => module.to_vec(),
        _ => return None,
    };
    while let Some(seg) = segments.peek() {
        match seg.as_str() {
            "self" => {}
            "super" => {
                base.pop()?;
            }
            _ => break,
        }
        segments.next();
    }
    let mut best = base.clone();
    for seg in segments {
        base.push(seg.clone());
        if modules.contains(&base) {
            best = base.clone();
        }
    }
    Some(best)
}

/// The import graph of the crate under `dir`: module path -> the modules it names. A module
/// naming its own ancestor or descendant is left out: a folder's `mod.rs` is the face of its
/// files, which it re-exports and which use the types it defines.
fn imports(dir: &Path, roots: &[String]) -> BTreeMap<Vec<String>, BTreeSet<Vec<String>>> {
    let files = rust_files(dir);
    let modules: BTreeSet<Vec<String>> = files
        .iter()
        .map(|p| module_of(p.strip_prefix(dir).unwrap()))
        .collect();
    let mut graph: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = BTreeMap::new();
    for path in &files {
        let rel = path.strip_prefix(dir).unwrap();
        let from = module_of(rel);
        for named in named_paths(&code_of(path, dir), roots) {
            let Some(to) = target(&from, &named, roots, &modules) else {
                continue;
            };
            if !to.starts_with(&from) && !from.starts_with(&to) {
                graph.entry(from.clone()).or_default().insert(to);
            }
        }
    }
    graph
}

/// `graph` with every module cut to its first `depth` segments, edges within one module or
/// between a module and its ancestor left out.
fn at_depth(
    graph: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
    depth: usize,
) -> BTreeMap<Vec<String>, BTreeSet<Vec<String>>> {
    let cut = |m: &Vec<String>| m[..m.len().min(depth)].to_vec();
    let mut out: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = BTreeMap::new();
    for (from, tos) in graph {
        for to in tos {
            let (a, b) = (cut(from), cut(to));
            if !a.starts_with(&b) && !b.starts_with(&a) {
                out.entry(a).or_default().insert(b);
            }
        }
    }
    out
}

/// The cycles of `graph` as its strongly connected components of more than one module, each
/// with one cycle through them to show (Tarjan's algorithm).
fn cycles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<(BTreeSet<String>, Vec<String>)> {
    struct State<'g> {
        graph: &'g BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'g str, usize>,
        low: BTreeMap<&'g str, usize>,
        stack: Vec<&'g str>,
        found: Vec<BTreeSet<String>>,
    }
    fn connect<'g>(node: &'g str, s: &mut State<'g>) {
        let i = s.index.len();
        s.index.insert(node, i);
        s.low.insert(node, i);
        s.stack.push(node);
        for next in s.graph.get(node).into_iter().flatten() {
            if !s.index.contains_key(next.as_str()) {
                connect(next, s);
                let low = s.low[node].min(s.low[next.as_str()]);
                s.low.insert(node, low);
            } else if s.stack.contains(&next.as_str()) {
                let low = s.low[node].min(s.index[next.as_str()]);
                s.low.insert(node, low);
            }
        }
        if s.low[node] == s.index[node] {
            let mut component = BTreeSet::new();
            while let Some(top) = s.stack.pop() {
                component.insert(top.to_string());
                if top == node {
                    break;
                }
            }
            if component.len() > 1 {
                s.found.push(component);
            }
        }
    }
    let mut s = State {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        found: Vec::new(),
    };
    for node in graph.keys() {
        if !s.index.contains_key(node.as_str()) {
            connect(node, &mut s);
        }
    }
    s.found
        .into_iter()
        .map(|component| {
            let shown = one_cycle(graph, &component);
            (component, shown)
        })
        .collect()
}

/// A shortest cycle through the first module of `component`, staying inside it.
fn one_cycle(
    graph: &BTreeMap<String, BTreeSet<String>>,
    component: &BTreeSet<String>,
) -> Vec<String> {
    let start = component.iter().next().unwrap();
    let mut came_from: BTreeMap<&str, &str> = BTreeMap::new();
    let mut queue = std::collections::VecDeque::from([start.as_str()]);
    while let Some(node) = queue.pop_front() {
        for next in graph.get(node).into_iter().flatten() {
            if !component.contains(next) {
                continue;
            }
            if next == start {
                let mut path = vec![start.clone()];
                let mut at = node;
                while at != start {
                    path.push(at.to_string());
                    at = came_from[at];
                }
                path.push(start.clone());
                path.reverse();
                return path;
            }
            if !came_from.contains_key(next.as_str()) {
                came_from.insert(next, node);
                queue.push_back(next);
            }
        }
    }
    unreachable!("a strongly connected component has a cycle through each member")
}

/// Every import cycle of the crate under `dir`, at every depth of its module tree (so a cycle
/// between two folders shows even when no two of their files import each other): the modules
/// of the cycle, and one way round it.
fn import_cycles(dir: &Path, roots: &[String]) -> Vec<(BTreeSet<String>, Vec<String>)> {
    let graph = imports(dir, roots);
    let deepest = graph.keys().map(Vec::len).max().unwrap_or(0);
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for depth in 1..=deepest {
        let named: BTreeMap<String, BTreeSet<String>> = at_depth(&graph, depth)
            .into_iter()
            .map(|(k, v)| (k.join("::"), v.iter().map(|m| m.join("::")).collect()))
            .collect();
        for (members, shown) in cycles(&named) {
            if seen.insert(members.clone()) {
                out.push((members, shown));
            }
        }
    }
    out
}

#[test]
fn no_module_imports_one_that_imports_it_back() {
    let mut found = BTreeMap::new();
    for (dir, roots) in crates() {
        for (members, shown) in import_cycles(&repo().join(&dir), &roots) {
            let all = members.into_iter().collect::<Vec<_>>().join(", ");
            let key = format!("{dir}: {all}");
            found.insert(
                key,
                format!(
                    "{dir}: the modules {} import each other in a cycle (it joins {all})",
                    shown.join(" -> ")
                ),
            );
        }
    }
    let allowed: Vec<String> = CYCLES
        .iter()
        .map(|(dir, members, _)| {
            let members: BTreeSet<&str> = members.iter().copied().collect();
            format!(
                "{dir}: {}",
                members.into_iter().collect::<Vec<_>>().join(", ")
            )
        })
        .collect();
    let problems = against(&found, &allowed, "CYCLES");
    assert!(
        problems.is_empty(),
        "make the imports point one way:\n{}",
        problems.join("\n")
    );
}

#[test]
fn cycles_are_found() {
    let graph: BTreeMap<String, BTreeSet<String>> = [("a", "b"), ("b", "c"), ("c", "a")]
        .into_iter()
        .map(|(f, t)| (f.to_string(), BTreeSet::from([t.to_string()])))
        .collect();
    let found = cycles(&graph);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].1, ["a", "b", "c", "a"]);
}

#[test]
fn use_trees_and_paths_in_place_are_read() {
    let roots = ["crate".to_string(), "moo_core".to_string()];
    let code = "use crate::tree::{self, jobs::{plan, join as j}};\nuse super::bounds::Bounds;\n\
                fn f() { crate::space::CodeSpace::new(); self::g(); }";
    let paths: Vec<String> = named_paths(code, &roots)
        .into_iter()
        .map(|p| p.join("::"))
        .collect();
    assert_eq!(
        paths,
        [
            "crate::tree",
            "crate::tree::jobs::plan",
            "crate::tree::jobs::join",
            "super::bounds::Bounds",
            "crate::space::CodeSpace::new",
            "self::g",
        ]
    );
    let modules: BTreeSet<Vec<String>> = [
        vec!["tree"],
        vec!["tree", "search"],
        vec!["tree", "search", "bounds"],
    ]
    .into_iter()
    .map(|m| m.into_iter().map(String::from).collect())
    .collect();
    let here: Vec<String> = ["tree", "search", "parts"].map(String::from).to_vec();
    let path: Vec<String> = ["super", "bounds", "Bounds"].map(String::from).to_vec();
    assert_eq!(
        target(&here, &path, &roots, &modules),
        Some(["tree", "search", "bounds"].map(String::from).to_vec())
    );
}
