//! CLI tests: the real `moo` binary driven through arguments and piped stdin.

#[path = "../common/mod.rs"]
mod common;

mod bench;
mod completions;
mod crack;
mod daily;
mod duel;
mod hint;
mod kernels;
mod play;
mod refute;
mod review;
mod shipped_runs;
mod snapshots;
mod solve;
mod tree;
mod tree_split;
mod verifier;
