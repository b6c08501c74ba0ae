//! The layout rules of issue 31, checked on the sources so they cannot erode unnoticed: the exact
//! search stays in files a reader can hold and functions that fit on a screen, and no module
//! imports another that imports it back (the library's top-level modules, the CLI's commands).

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// Longest file allowed under `crates/moo-core/src/tree/`.
const MAX_FILE_LINES: usize = 700;
/// Longest function allowed there.
const MAX_FN_LINES: usize = 80;

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

#[test]
fn the_exact_search_has_short_files_and_functions() {
    let tree = repo().join("crates/moo-core/src/tree");
    let mut problems = Vec::new();
    for path in rust_files(&tree) {
        let text = read(&path);
        let shown = path.strip_prefix(repo()).unwrap().display().to_string();
        let lines = text.lines().count();
        if lines > MAX_FILE_LINES {
            problems.push(format!("{shown}: {lines} lines (at most {MAX_FILE_LINES})"));
        }
        for (name, at, len) in long_functions(&text, MAX_FN_LINES) {
            problems.push(format!(
                "{shown}:{at}: fn {name} is {len} lines (at most {MAX_FN_LINES})"
            ));
        }
    }
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
fn code_of(path: &Path) -> String {
    let inside = path.strip_prefix(repo()).unwrap_or(path);
    if inside
        .components()
        .any(|c| c.as_os_str() == "tests" || c.as_os_str() == "tests.rs")
    {
        return String::new();
    }
    let text = read(path);
    let text = match text.find("#[cfg(test)]") {
        Some(at) => &text[..at],
        None => &text,
    };
    text.lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The modules of `dir` (its files and folders, `lib`/`main`/`mod` excepted) and which of them
/// each one names through `crate::NAME`, `PREFIX::NAME` or `super::NAME`.
fn imports(dir: &Path, prefixes: &[&str]) -> BTreeMap<String, BTreeSet<String>> {
    let module_of = |path: &Path| -> Option<String> {
        let rel = path.strip_prefix(dir).ok()?;
        let first = rel.components().next()?.as_os_str().to_str()?.to_string();
        let name = first.strip_suffix(".rs").unwrap_or(&first).to_string();
        (!["lib", "main", "mod"].contains(&name.as_str())).then_some(name)
    };
    let files = rust_files(dir);
    let modules: BTreeSet<String> = files.iter().filter_map(|p| module_of(p)).collect();
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for path in &files {
        let Some(from) = module_of(path) else {
            continue;
        };
        let nested = path.parent() != Some(dir);
        let code = code_of(path);
        for prefix in prefixes
            .iter()
            .chain(if nested { &[][..] } else { &["super"][..] })
        {
            let pattern = format!("{prefix}::");
            for (at, _) in code.match_indices(&pattern) {
                let before = code[..at].chars().next_back();
                if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                    continue;
                }
                let name: String = code[at + pattern.len()..]
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if name != from && modules.contains(&name) {
                    graph.entry(from.clone()).or_default().insert(name);
                }
            }
        }
    }
    graph
}

/// A cycle of the graph, if it has one.
fn cycle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|n| n == node) {
            let mut found = path[at..].to_vec();
            found.push(node.to_string());
            return Some(found);
        }
        if done.contains(node) {
            return None;
        }
        path.push(node.to_string());
        for next in graph.get(node).into_iter().flatten() {
            if let Some(found) = visit(next, graph, path, done) {
                return Some(found);
            }
        }
        path.pop();
        done.insert(node.to_string());
        None
    }
    let mut done = BTreeSet::new();
    graph
        .keys()
        .find_map(|node| visit(node, graph, &mut Vec::new(), &mut done))
}

#[test]
fn no_module_imports_one_that_imports_it_back() {
    let places: [(&str, &[&str]); 2] = [
        ("crates/moo-core/src", &["crate", "moo_core"]),
        ("src/cli", &["crate::cli"]),
    ];
    for (dir, prefixes) in places {
        let graph = imports(&repo().join(dir), prefixes);
        if let Some(found) = cycle(&graph) {
            panic!(
                "{dir}: the modules {} import each other in a cycle",
                found.join(" -> ")
            );
        }
    }
}

#[test]
fn cycles_are_found() {
    let graph: BTreeMap<String, BTreeSet<String>> = [("a", "b"), ("b", "c"), ("c", "a")]
        .into_iter()
        .map(|(f, t)| (f.to_string(), BTreeSet::from([t.to_string()])))
        .collect();
    assert_eq!(cycle(&graph).map(|c| c.len()), Some(4));
}
