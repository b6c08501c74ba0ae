//! The links of the README and the book (`docs/`) lead somewhere: every relative link names a file
//! that exists and, when it has a `#fragment`, a heading of that file. `mdbook build` checks
//! neither cross-page fragments nor the README, so a renamed heading would otherwise break links
//! silently.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The Markdown files whose links are checked: the README and every page of the book.
fn documents() -> Vec<PathBuf> {
    let mut files = vec![root().join("README.md")];
    let src = root().join("docs/src");
    let mut pages: Vec<PathBuf> = fs::read_dir(&src)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", src.display()))
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "md"))
        .collect();
    pages.sort();
    files.extend(pages);
    files
}

/// The lines of a Markdown text outside fenced code blocks, with inline code removed, so that
/// examples of link syntax inside code are not taken for links.
fn prose(text: &str) -> Vec<String> {
    let mut fenced = false;
    let mut lines = Vec::new();
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        let kept: String = if line.starts_with('#') {
            // A heading's id keeps what its code spans hold, without the backticks.
            line.chars().filter(|&ch| ch != '`').collect()
        } else {
            line.split('`').step_by(2).collect()
        };
        lines.push(kept);
    }
    lines
}

/// The fragment mdbook (and GitHub, for these headings) gives a heading: lower case, spaces as
/// dashes, everything but letters, digits, `-` and `_` dropped.
fn heading_id(heading: &str) -> String {
    heading
        .chars()
        .filter_map(|ch| {
            if ch.is_alphanumeric() || ch == '_' || ch == '-' {
                Some(ch.to_ascii_lowercase())
            } else if ch.is_whitespace() {
                Some('-')
            } else {
                None
            }
        })
        .collect()
}

fn heading_ids(path: &Path) -> BTreeSet<String> {
    let text = fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    prose(&text)
        .iter()
        .filter(|line| line.starts_with('#'))
        .map(|line| heading_id(line.trim_start_matches('#').trim()))
        .collect()
}

/// Every `](target)` of a line.
fn link_targets(line: &str) -> Vec<String> {
    let mut targets = Vec::new();
    let mut rest = line;
    while let Some(start) = rest.find("](") {
        rest = &rest[start + 2..];
        match rest.find(')') {
            Some(end) => {
                targets.push(rest[..end].to_string());
                rest = &rest[end..];
            }
            None => break,
        }
    }
    targets
}

#[test]
fn every_link_of_the_readme_and_the_book_resolves() {
    let mut broken = Vec::new();
    let mut checked = 0;
    for document in documents() {
        let text = fs::read_to_string(&document).expect("a readable document");
        let dir = document.parent().expect("a file in a directory");
        for target in prose(&text).iter().flat_map(|line| link_targets(line)) {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            checked += 1;
            let (file, fragment) = match target.split_once('#') {
                Some((file, fragment)) => (file, Some(fragment)),
                None => (target.as_str(), None),
            };
            let file = if file.is_empty() {
                document.clone()
            } else {
                dir.join(file)
            };
            if !file.exists() {
                broken.push(format!("{}: {target}: no such file", document.display()));
                continue;
            }
            if let Some(fragment) = fragment {
                if !heading_ids(&file).contains(fragment) {
                    broken.push(format!("{}: {target}: no such heading", document.display()));
                }
            }
        }
    }
    assert!(
        checked > 20,
        "only {checked} links found: is the parser broken?"
    );
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn every_page_of_the_book_is_in_its_summary() {
    let src = root().join("docs/src");
    let summary = fs::read_to_string(src.join("SUMMARY.md")).expect("docs/src/SUMMARY.md");
    let listed: BTreeSet<String> = prose(&summary)
        .iter()
        .flat_map(|line| link_targets(line))
        .collect();
    for page in documents().iter().skip(1) {
        let name = page.file_name().expect("a file name").to_string_lossy();
        if name != "SUMMARY.md" {
            assert!(
                listed.contains(name.as_ref()),
                "docs/src/{name} is not listed in docs/src/SUMMARY.md, so the book leaves it out"
            );
        }
    }
}

#[test]
fn the_results_the_book_includes_from_the_readme_are_marked() {
    let readme = fs::read_to_string(root().join("README.md")).expect("README.md");
    for marker in ["ANCHOR: results", "ANCHOR_END: results"] {
        assert!(
            readme.contains(marker),
            "README.md lost its `{marker}` comment, which docs/src/results.md includes from"
        );
    }
}

#[test]
fn heading_ids_follow_mdbook() {
    assert_eq!(
        heading_id("Splitting a search over machines (moo tree split, job, join)"),
        "splitting-a-search-over-machines-moo-tree-split-job-join"
    );
    assert_eq!(heading_id("Building and testing"), "building-and-testing");
    assert_eq!(
        link_targets("see [a](b.md#c) and [d](e.md)"),
        ["b.md#c", "e.md"]
    );
}

/// The book's file maps: a table whose first column is headed `file`, under a paragraph that
/// names a folder (`crates/.../`). Returns (page, folder, the names its first column gives).
fn file_maps() -> Vec<(String, String, BTreeSet<String>)> {
    let mut maps = Vec::new();
    for page in documents().iter().skip(1) {
        let text = fs::read_to_string(page).expect("a readable page");
        let lines: Vec<&str> = text.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            if !line.starts_with("| file |") {
                continue;
            }
            let before = lines[i.saturating_sub(3)..i].join(" ");
            let folder = before
                .split('`')
                .skip(1)
                .step_by(2)
                .filter(|span| span.ends_with('/'))
                .last()
                .unwrap_or_else(|| {
                    panic!(
                        "{}:{}: a file map names no folder (`path/`) just above it",
                        page.display(),
                        i + 1
                    )
                });
            let names = lines[i + 2..]
                .iter()
                .take_while(|row| row.starts_with('|'))
                .flat_map(|row| {
                    let first = row.split('|').nth(1).unwrap_or("");
                    first
                        .split('`')
                        .skip(1)
                        .step_by(2)
                        .map(str::to_string)
                        .collect::<Vec<_>>()
                })
                .collect();
            let name = page.file_name().unwrap().to_string_lossy().to_string();
            maps.push((name, folder.to_string(), names));
        }
    }
    maps
}

/// A file map lists every source file and folder of its folder (the tests excepted), and
/// nothing else: a file added, renamed or removed must show in the book.
#[test]
fn the_books_file_maps_match_their_folders() {
    let maps = file_maps();
    assert!(!maps.is_empty(), "no file map found: is the parser broken?");
    let mut problems = Vec::new();
    for (page, folder, listed) in maps {
        let dir = root().join(&folder);
        let present: BTreeSet<String> = fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("docs/src/{page}: {folder}: {e}"))
            .map(|entry| entry.expect("a directory entry").path())
            .filter_map(|path| {
                let name = path.file_name()?.to_str()?.to_string();
                if name == "tests.rs" || name == "tests" {
                    None
                } else if path.is_dir() {
                    Some(format!("{name}/"))
                } else {
                    name.ends_with(".rs").then_some(name)
                }
            })
            .collect();
        for missing in present.difference(&listed) {
            problems.push(format!(
                "docs/src/{page}: the map of {folder} lacks {missing}"
            ));
        }
        for stale in listed.difference(&present) {
            problems.push(format!(
                "docs/src/{page}: the map of {folder} lists {stale}, which is not there"
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
