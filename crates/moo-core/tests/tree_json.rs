//! The tree JSON loader fed arbitrary bytes, token soup, and searched trees broken in one place.
//!
//! Tree files come from other people and other programs, so the loader is the parser most
//! exposed to hostile input. Random bytes rarely get past the first brace, so most cases start
//! from a tree the exact search wrote and change one thing: a branch key, a guess, a field, the
//! rules, or the depth. Each outcome is judged by an oracle that replays every secret straight
//! over the JSON value, written without the loader: what it calls valid must load and verify
//! with the same statistics, and what it rejects must come back as a typed error naming the
//! offending key, guess or field. Nothing may panic or overflow the stack.

use std::collections::{HashMap, HashSet};
use std::sync::OnceLock;

use moo_core::text::excerpt;
use moo_core::tree::{OptimalTree, Search};
use moo_core::{CodeSpace, DecisionTree, Feedback, Rules, SearchOutcome, TreeError, TreeStats};
use proptest::prelude::*;
use proptest::sample::Index;
use serde_json::{json, Value};

/// A searched tree and what it scores.
struct Sample {
    rules: Rules,
    tree: Value,
    stats: TreeStats,
}

/// Small games covering the rule options, each searched once per test binary (the search is
/// the slow part; mutating its output is cheap, so the cases can be many).
fn samples() -> &'static [Sample] {
    static SAMPLES: OnceLock<Vec<Sample>> = OnceLock::new();
    SAMPLES.get_or_init(|| {
        [
            (1, "0", false, false),
            (1, "01234", false, false),
            (2, "abc", true, false),
            (2, "0123", false, true),
            (3, "012", true, false),
            (3, "01234", false, false),
        ]
        .into_iter()
        .map(|(length, symbols, repeats, no_leading)| {
            let rules = Rules::new(length, symbols, repeats, no_leading).unwrap();
            let space = CodeSpace::new(rules.clone()).unwrap();
            let SearchOutcome::Found(OptimalTree { tree, stats }) =
                Search::whole(&space).run().unwrap()
            else {
                panic!("no depth limit, so {rules} has a tree");
            };
            let tree = serde_json::from_str(&tree.to_json(false)).unwrap();
            Sample { rules, tree, stats }
        })
        .collect()
    })
}

/// Loads and verifies, as `moo tree verify` does.
fn load(text: &str) -> Result<TreeStats, TreeError> {
    DecisionTree::from_json(text)?.verify()
}

// ---- the oracle ----------------------------------------------------------------------------

/// What the oracle makes of a tree whose JSON shape is intact.
#[derive(Debug)]
enum Verdict {
    /// A guess or key does not parse, a key is the win or repeats a sibling: these texts.
    Syntax(Vec<String>),
    /// Every text parses, but some secret gets stuck or some branch is never taken.
    Semantic,
    /// The tree solves every secret: `histogram[k - 1]` secrets take `k` guesses.
    Valid(Vec<u64>),
}

/// Judges the node tree under `root` for `rules` by walking each secret down it.
fn oracle(rules: &Rules, root: &Value) -> Verdict {
    let length = rules.length();
    let mut bad = Vec::new();
    let mut edges = 0usize;
    let mut stack = vec![root];
    while let Some(node) = stack.pop() {
        let guess = node["guess"].as_str().unwrap();
        if rules.parse_code(guess).is_err() {
            bad.push(guess.to_string());
        }
        let mut seen = HashMap::new();
        for (key, child) in node["children"].as_object().into_iter().flatten() {
            edges += 1;
            match Feedback::parse(key, length) {
                Ok(f) if f.is_win(length) => bad.push(key.clone()),
                Ok(f) => {
                    // Either spelling may be the one reported, depending on the map's order.
                    if let Some(first) = seen.insert(f, key) {
                        bad.extend([first.clone(), key.clone()]);
                    }
                }
                Err(_) => bad.push(key.clone()),
            }
            stack.push(child);
        }
    }
    if !bad.is_empty() {
        return Verdict::Syntax(bad);
    }
    let space = CodeSpace::new(rules.clone()).unwrap();
    let mut taken: HashSet<*const Value> = HashSet::new();
    let mut histogram = Vec::new();
    for secret in space.codes() {
        let mut node = root;
        let mut depth = 1;
        loop {
            let guess = rules.parse_code(node["guess"].as_str().unwrap()).unwrap();
            let feedback = guess.score(secret);
            if feedback.is_win(length) {
                if histogram.len() < depth {
                    histogram.resize(depth, 0);
                }
                histogram[depth - 1] += 1;
                break;
            }
            let next = node["children"]
                .as_object()
                .into_iter()
                .flatten()
                .find(|(key, _)| Feedback::parse(key, length) == Ok(feedback));
            let Some((_, child)) = next else {
                return Verdict::Semantic;
            };
            taken.insert(child as *const Value);
            node = child;
            depth += 1;
        }
    }
    if taken.len() < edges {
        return Verdict::Semantic;
    }
    Verdict::Valid(histogram)
}

/// Checks the loader's answer on `text` against the oracle's verdict.
fn judge(rules: &Rules, value: &Value, text: &str) -> Result<(), TestCaseError> {
    let result = load(text);
    match oracle(rules, &value["root"]) {
        Verdict::Valid(histogram) => {
            let stats = result.map_err(|e| TestCaseError::fail(format!("rejected: {e}")))?;
            prop_assert_eq!(&stats.histogram, &histogram);
            prop_assert_eq!(stats.secrets, histogram.iter().sum::<u64>());
            prop_assert_eq!(stats.max as usize, histogram.len());
        }
        Verdict::Semantic => match result {
            Err(TreeError::MissingBranch { .. } | TreeError::DeadBranch { .. }) => {}
            other => prop_assert!(false, "expected a missing or dead branch, got {:?}", other),
        },
        Verdict::Syntax(texts) => {
            // Errors quote what was typed as an excerpt: whole when short, cut when long.
            let named = |t: &String| match &result {
                Err(TreeError::BadFeedback { key, .. }) => *key == excerpt(t),
                // Code errors quote the code as Rust would.
                Err(TreeError::BadGuess { reason, .. }) => {
                    reason.contains(&format!("{:?}", excerpt(t.trim())))
                }
                _ => false,
            };
            prop_assert!(
                texts.iter().any(named),
                "expected an error naming one of {:?}, got {:?}",
                texts,
                result
            );
        }
    }
    Ok(())
}

// ---- mutations -----------------------------------------------------------------------------

/// A new text for a branch key.
#[derive(Debug, Clone)]
enum KeyEdit {
    /// Literally this.
    Raw(String),
    /// The winning feedback, which never has a branch.
    Win,
    /// More bulls and cows than the code has symbols.
    TooMany,
    /// Another spelling of the same feedback: form `0..6`.
    Alias(usize),
}

fn key_edit() -> impl Strategy<Value = KeyEdit> {
    prop_oneof![
        prop::sample::select(vec![
            "5B0C", "1B", "xx", "", "0B9C", "1B1B", "B", "-1B0C", "1B2C3"
        ])
        .prop_map(|s| KeyEdit::Raw(s.to_string())),
        "[0-9]{1,3}[bB][0-9]{1,3}[cC]".prop_map(KeyEdit::Raw),
        "[0-9]{20,40}(B0C)?".prop_map(KeyEdit::Raw),
        "[0-9 ,/-]{0,5}".prop_map(KeyEdit::Raw),
        "\\PC{0,10}".prop_map(KeyEdit::Raw),
        Just(KeyEdit::Win),
        Just(KeyEdit::TooMany),
        (0usize..6).prop_map(KeyEdit::Alias),
    ]
}

impl KeyEdit {
    fn text(&self, old: &str, length: usize) -> String {
        match self {
            KeyEdit::Raw(s) => s.clone(),
            KeyEdit::Win => Feedback::win(length).to_string(),
            KeyEdit::TooMany => format!("{length}B1C"),
            KeyEdit::Alias(form) => {
                let f = Feedback::parse(old, length).unwrap();
                let (b, c) = (f.bulls, f.cows);
                match form {
                    0 => format!("{b} {c}"),
                    1 => format!("{b}{c}"),
                    2 => format!("{b}b{c}c"),
                    3 => format!("{c}C{b}B"),
                    4 => format!(" {b}B{c}C "),
                    _ => format!("{b},{c}"),
                }
            }
        }
    }
}

/// A new text for a guess.
#[derive(Debug, Clone)]
enum GuessEdit {
    /// Another legal code of the rules.
    Other(Index),
    /// One symbol short.
    Shorter,
    /// One symbol too many.
    Longer(Index),
    /// The first symbol twice.
    Doubled,
    /// One symbol swapped for one outside the alphabet.
    Foreign(char),
    /// The same code with separators between the symbols.
    Spaced,
    /// Literally this.
    Raw(String),
}

fn guess_edit() -> impl Strategy<Value = GuessEdit> {
    prop_oneof![
        any::<Index>().prop_map(GuessEdit::Other),
        Just(GuessEdit::Shorter),
        any::<Index>().prop_map(GuessEdit::Longer),
        Just(GuessEdit::Doubled),
        prop::sample::select(vec!['Z', '9', ' ', 'é', '\u{1F404}', '"', '\\'])
            .prop_map(GuessEdit::Foreign),
        Just(GuessEdit::Spaced),
        "\\PC{0,8}".prop_map(GuessEdit::Raw),
    ]
}

impl GuessEdit {
    fn text(&self, old: &str, rules: &Rules) -> String {
        let symbols = rules.alphabet();
        match self {
            GuessEdit::Other(i) => {
                let space = CodeSpace::new(rules.clone()).unwrap();
                rules.format_code(i.get(space.codes()))
            }
            GuessEdit::Shorter => old.chars().skip(1).collect(),
            GuessEdit::Longer(i) => format!("{old}{}", i.get(symbols)),
            GuessEdit::Doubled => {
                let mut chars: Vec<char> = old.chars().collect();
                if chars.len() > 1 {
                    chars[1] = chars[0];
                } else {
                    chars.push(chars[0]);
                }
                chars.into_iter().collect()
            }
            GuessEdit::Foreign(c) => std::iter::once(*c).chain(old.chars().skip(1)).collect(),
            GuessEdit::Spaced => old.chars().map(|c| format!("{c} ")).collect(),
            GuessEdit::Raw(s) => s.clone(),
        }
    }
}

/// A change that keeps the JSON shape, so the oracle can judge the result.
#[derive(Debug, Clone)]
enum Edit {
    /// Give one branch a new key.
    RenameKey(KeyEdit),
    /// Add a branch whose node repeats the parent's guess.
    AddBranch(KeyEdit),
    /// Remove one branch with everything under it.
    CutBranch,
    /// Change one node's guess.
    SetGuess(GuessEdit),
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        key_edit().prop_map(Edit::RenameKey),
        key_edit().prop_map(Edit::AddBranch),
        Just(Edit::CutBranch),
        guess_edit().prop_map(Edit::SetGuess),
    ]
}

/// JSON pointers to every node under `/root`, root first.
fn node_paths(tree: &Value) -> Vec<String> {
    let mut paths = Vec::new();
    let mut stack = vec!["/root".to_string()];
    while let Some(path) = stack.pop() {
        if let Some(children) = tree.pointer(&path).unwrap()["children"].as_object() {
            for key in children.keys() {
                stack.push(format!("{path}/children/{}", escape(key)));
            }
        }
        paths.push(path);
    }
    paths
}

/// A key as one JSON pointer step.
fn escape(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

/// Applies `edit` at the node `at` picks; false when the tree has no place for it (a branch
/// edit on a single-node tree).
fn apply(tree: &mut Value, rules: &Rules, edit: &Edit, at: &Index) -> bool {
    let length = rules.length();
    let paths = node_paths(tree);
    let branches: Vec<&String> = paths.iter().filter(|p| p.contains("/children/")).collect();
    match edit {
        Edit::RenameKey(_) | Edit::CutBranch if branches.is_empty() => false,
        Edit::RenameKey(k) => {
            let path = at.get(&branches);
            let (parent, key) = path.rsplit_once('/').unwrap();
            let key = key.replace("~1", "/").replace("~0", "~");
            let children = tree.pointer_mut(parent).unwrap().as_object_mut().unwrap();
            let child = children.remove(&key).unwrap();
            children.insert(k.text(&key, length), child);
            true
        }
        Edit::CutBranch => {
            let path = at.get(&branches);
            let (parent, key) = path.rsplit_once('/').unwrap();
            let key = key.replace("~1", "/").replace("~0", "~");
            let children = tree.pointer_mut(parent).unwrap().as_object_mut().unwrap();
            children.remove(&key);
            true
        }
        Edit::AddBranch(k) => {
            let node = tree.pointer_mut(at.get(&paths).as_str()).unwrap();
            let guess = node["guess"].clone();
            // An alias of the node's first branch, or of 0B0C on a leaf.
            let model = node["children"]
                .as_object()
                .and_then(|c| c.keys().next().cloned())
                .unwrap_or_else(|| "0B0C".to_string());
            let key = match k {
                KeyEdit::Alias(_) if Feedback::parse(&model, length).is_err() => return false,
                _ => k.text(&model, length),
            };
            let children = node
                .as_object_mut()
                .unwrap()
                .entry("children")
                .or_insert_with(|| json!({}));
            children[key] = json!({ "guess": guess });
            true
        }
        Edit::SetGuess(g) => {
            let node = tree.pointer_mut(at.get(&paths).as_str()).unwrap();
            let old = node["guess"].as_str().unwrap().to_string();
            node["guess"] = Value::String(g.text(&old, rules));
            true
        }
    }
}

/// A change that breaks the JSON shape or the rules: the loader must refuse it with a
/// `Malformed` error containing `expect`.
#[derive(Debug, Clone)]
struct Break {
    /// The object holding the field.
    target: Target,
    field: &'static str,
    /// The field's new value as raw JSON text, spliced in so that numbers no `Value` can hold
    /// (1e400) are possible; `None` removes the field.
    raw: Option<&'static str>,
    /// What the error message must say.
    expect: &'static str,
}

/// Which object a [`Break`] changes.
#[derive(Debug, Clone, Copy)]
enum Target {
    /// `{"rules": ..., "root": ...}` itself.
    TopLevel,
    /// The rules object.
    InRules,
    /// A node the case picks.
    InNode,
}

fn breaks() -> Vec<Break> {
    use Target::{InNode as Node, InRules as Rules, TopLevel as Top};
    let b = |target, field, raw, expect| Break {
        target,
        field,
        raw,
        expect,
    };
    vec![
        b(Top, "rules", None, "missing field `rules`"),
        b(Top, "root", None, "missing field `root`"),
        b(Top, "comment", Some("\"hi\""), "unknown field `comment`"),
        b(Top, "root", Some("[]"), "invalid length 0"),
        b(Top, "root", Some("null"), "invalid type: null"),
        b(Top, "rules", Some("\"bulls\""), "invalid type: string"),
        b(
            Top,
            "rules",
            Some(r#"{"length":5,"symbols":"0123","repeats":false}"#),
            "the alphabet has only 4",
        ),
        b(
            Top,
            "rules",
            Some(r#"{"length":1,"symbols":"0","repeats":true,"no_leading":true}"#),
            "no code is left",
        ),
        b(Rules, "length", Some("0"), "code length must be at least 1"),
        b(Rules, "length", Some("16"), "code length 16 is too long"),
        b(Rules, "length", Some("-1"), "invalid value: integer `-1`"),
        b(Rules, "length", Some("1e400"), "number out of range"),
        b(
            Rules,
            "length",
            Some("18446744073709551616"),
            "invalid type: floating point",
        ),
        b(
            Rules,
            "length",
            Some("4294967300"),
            "code length 4294967300 is too long",
        ),
        b(Rules, "length", Some("\"4\""), "invalid type: string \"4\""),
        b(Rules, "length", None, "missing field `length`"),
        b(Rules, "symbols", Some("\"\""), "the alphabet is empty"),
        b(
            Rules,
            "symbols",
            Some("\"0012\""),
            "symbol '0' appears more than once",
        ),
        b(
            Rules,
            "symbols",
            Some("\"01 2\""),
            "symbol U+0020 cannot be used",
        ),
        b(Rules, "symbols", Some("7"), "invalid type: integer `7`"),
        b(
            Rules,
            "repeats",
            Some("\"no\""),
            "invalid type: string \"no\"",
        ),
        b(Rules, "repeats", None, "missing field `repeats`"),
        b(Rules, "colours", Some("6"), "unknown field `colours`"),
        b(Node, "guess", None, "missing field `guess`"),
        b(Node, "guess", Some("123"), "invalid type: integer `123`"),
        b(Node, "guess", Some("1e400"), "number out of range"),
        b(Node, "guess", Some("null"), "invalid type: null"),
        b(Node, "children", Some("[]"), "invalid type: sequence"),
        b(Node, "children", Some("\"0B1C\""), "invalid type: string"),
        b(
            Node,
            "children",
            Some("{\"0B1C\": 5}"),
            "invalid type: integer `5`",
        ),
        b(
            Node,
            "weight",
            Some("99999999999999999999999"),
            "unknown field `weight`",
        ),
    ]
}

/// The placeholder a raw splice replaces; no tree text contains it.
const SPLICE: &str = "\u{1}splice\u{1}";

fn apply_break(tree: &Value, brk: &Break, at: &Index) -> String {
    let mut tree = tree.clone();
    let path = match brk.target {
        Target::TopLevel => String::new(),
        Target::InRules => "/rules".to_string(),
        Target::InNode => at.get(&node_paths(&tree)).clone(),
    };
    let object = tree.pointer_mut(&path).unwrap().as_object_mut().unwrap();
    match brk.raw {
        None => {
            object.remove(brk.field);
        }
        Some(_) => {
            object.insert(brk.field.to_string(), Value::String(SPLICE.to_string()));
        }
    }
    let text = tree.to_string();
    match brk.raw {
        Some(raw) => text.replace(&Value::String(SPLICE.to_string()).to_string(), raw),
        None => text,
    }
}

/// `depth` nested nodes on the first guess of `sample`, each one branch `0B0C` deeper, as
/// text: building it as a `Value` would itself recurse that deep when dropped.
fn nested(sample: &Sample, depth: usize) -> String {
    let rules = serde_json::to_string(&sample.rules).unwrap();
    let guess = sample.tree["root"]["guess"].to_string();
    let open = format!("{{\"guess\":{guess},\"children\":{{\"0B0C\":");
    let mut text = format!("{{\"rules\":{rules},\"root\":");
    text.reserve(depth * (open.len() + 2) + 64);
    for _ in 1..depth {
        text.push_str(&open);
    }
    text.push_str(&format!("{{\"guess\":{guess}}}"));
    for _ in 1..depth {
        text.push_str("}}");
    }
    text.push('}');
    text
}

/// Pieces of tree JSON, to assemble inputs that get further into the parser than random bytes.
fn token() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        "{",
        "}",
        "[",
        "]",
        ":",
        ",",
        "\"rules\"",
        "\"root\"",
        "\"guess\"",
        "\"children\"",
        "\"length\"",
        "\"symbols\"",
        "\"repeats\"",
        "\"no_leading\"",
        "\"0123\"",
        "\"012\"",
        "\"1B2C\"",
        "\"0B0C\"",
        "\"4B0C\"",
        "\"0123456789\"",
        "4",
        "3",
        "0",
        "-1",
        "1e400",
        "true",
        "false",
        "null",
        "\"\\u0000\"",
        "\"\\ud800\"",
        " ",
        r#"{"length":3,"symbols":"01234","repeats":false}"#,
        r#"{"length":1,"symbols":"0","repeats":true}"#,
    ])
}

// ---- the properties ------------------------------------------------------------------------

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..300)) {
        let text = String::from_utf8_lossy(&bytes);
        if let Ok(tree) = DecisionTree::from_json(&text) {
            let _ = tree.verify();
        }
        let _ = serde_json::from_slice::<DecisionTree>(&bytes);
    }

    #[test]
    fn token_soup_never_panics(tokens in prop::collection::vec(token(), 0..60)) {
        let text = tokens.concat();
        match DecisionTree::from_json(&text) {
            Ok(tree) => {
                let _ = tree.verify();
            }
            Err(e) => prop_assert!(!e.to_string().is_empty()),
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(384))]

    /// One edit that keeps the JSON shape: whatever loads and verifies has the oracle's
    /// statistics, and whatever the oracle rejects is refused naming the text at fault.
    #[test]
    fn edited_trees_load_exactly_when_the_oracle_accepts_them(
        which: Index,
        edit in edit(),
        at: Index,
    ) {
        let sample = which.get(samples());
        let mut tree = sample.tree.clone();
        prop_assume!(apply(&mut tree, &sample.rules, &edit, &at));
        judge(&sample.rules, &tree, &tree.to_string())?;
        // Respelling a key or a guess changes nothing about the strategy.
        if matches!(edit, Edit::RenameKey(KeyEdit::Alias(_)) | Edit::SetGuess(GuessEdit::Spaced)) {
            prop_assert_eq!(load(&tree.to_string()).unwrap(), sample.stats.clone());
        }
    }

    /// One edit that breaks the shape or the rules: refused as malformed, saying what is wrong.
    #[test]
    fn broken_shapes_and_rules_are_refused_by_name(
        which: Index,
        brk in prop::sample::select(breaks()),
        at: Index,
    ) {
        let sample = which.get(samples());
        let text = apply_break(&sample.tree, &brk, &at);
        match load(&text) {
            Err(TreeError::Malformed(message)) => prop_assert!(
                message.contains(brk.expect),
                "{:?} does not say {:?}\n{}", message, brk.expect, text
            ),
            other => prop_assert!(false, "expected a malformed tree, got {:?}\n{}", other, text),
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Chains of any depth up to the cap load and fail verification on their dead branch; none
    /// overflows the stack.
    #[test]
    fn nested_chains_of_any_depth_are_refused_without_overflow(
        which: Index,
        depth in prop_oneof![1usize..80, 80usize..20_000],
    ) {
        let sample = which.get(samples());
        let text = nested(sample, depth);
        match load(&text) {
            Ok(stats) => prop_assert!(depth == 1 && sample.rules.space_size() == 1, "{:?}", stats),
            Err(TreeError::DeadBranch { .. } | TreeError::MissingBranch { .. }) => {}
            Err(other) => prop_assert!(false, "depth {}: {}", depth, other),
        }
    }
}

/// A tree file may nest `MAX_TREE_DEPTH` guesses deep (moo writes trees of thousands of guesses
/// for brute force on big games): such a file is read and checked without overflowing the stack,
/// and a deeper one is refused before it is parsed. serde_json's own entry points keep their
/// limit of 128 levels.
#[test]
fn deep_trees_are_read_or_refused_without_a_stack_overflow() {
    let text = nested(&samples()[5], 10_000);
    match load(&text) {
        Err(TreeError::DeadBranch { .. } | TreeError::MissingBranch { .. }) => {}
        other => panic!("expected the chain's dead branch, got {other:?}"),
    }
    for result in [
        serde_json::from_str::<DecisionTree>(&text).map_err(|e| e.to_string()),
        serde_json::from_slice::<DecisionTree>(text.as_bytes()).map_err(|e| e.to_string()),
    ] {
        match result {
            Err(m) => assert!(m.contains("recursion limit"), "{m}"),
            other => panic!("expected the nesting limit, got {other:?}"),
        }
    }
    let text = nested(&samples()[5], moo_core::tree::MAX_TREE_DEPTH + 10);
    match DecisionTree::from_json(&text) {
        Err(TreeError::Malformed(m)) => assert!(m.contains("nests"), "{m}"),
        other => panic!("expected the depth cap, got {other:?}"),
    }
}

#[test]
fn the_oracle_accepts_every_sample_and_agrees_with_verify() {
    for sample in samples() {
        judge(&sample.rules, &sample.tree, &sample.tree.to_string()).unwrap();
        assert_eq!(load(&sample.tree.to_string()).unwrap(), sample.stats);
    }
}
