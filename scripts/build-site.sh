#!/usr/bin/env bash
# Builds moo's static site into DIR: the web UI's own files (crates/moo-web/assets, the very
# files `moo serve` embeds), moo-core compiled to WebAssembly with its JavaScript glue (pkg/),
# the list of files the service worker caches for offline play (files.json), and nothing else:
# any static file host serves DIR as it is.
#
#   scripts/build-site.sh DIR
#
# Needs the wasm32 target (`rustup target add wasm32-unknown-unknown`) and wasm-bindgen-cli at
# the version Cargo.lock gives wasm-bindgen (`cargo install wasm-bindgen-cli --version V`).
set -euo pipefail

if [ $# -ne 1 ] || [ -z "$1" ]; then
    echo "usage: scripts/build-site.sh DIR   (the directory to write the static site into)" >&2
    exit 2
fi
out=$1
root=$(cd "$(dirname "$0")/.." && pwd)
target=${CARGO_TARGET_DIR:-$root/target}

locked=$(grep -A1 '^name = "wasm-bindgen"$' "$root/Cargo.lock" | sed -n 's/^version = "\(.*\)"$/\1/p')
have=$(wasm-bindgen --version 2>/dev/null | awk '{print $2}' || true)
if [ "$have" != "$locked" ]; then
    echo "build-site: wasm-bindgen ${have:-is not installed}; this build needs $locked, the version Cargo.lock locks:" >&2
    echo "    cargo install wasm-bindgen-cli --version $locked" >&2
    exit 1
fi

cargo build --manifest-path "$root/Cargo.toml" --release --locked -p moo-wasm --target wasm32-unknown-unknown

mkdir -p "$out"
# A fresh directory each time: a file left from an older build would be served and cached.
find "$out" -mindepth 1 -delete
cp -R "$root/crates/moo-web/assets/." "$out/"
wasm-bindgen --target web --no-typescript --out-dir "$out/pkg" \
    "$target/wasm32-unknown-unknown/release/moo_wasm.wasm"

# The shipped optimal trees, which the WebAssembly build leaves out: its worker fetches one when
# a game needs it (the files named in crates/moo-core/src/strategy/tree.rs).
mkdir -p "$out/trees"
trees=$(grep -o 'embedded!("../../trees/[a-z0-9-]*\.json")' "$root/crates/moo-core/src/strategy/tree.rs" \
    | sed 's|.*/trees/\(.*\)")|\1|')
[ -n "$trees" ] || { echo "build-site: no shipped tree found in crates/moo-core/src/strategy/tree.rs" >&2; exit 1; }
for tree in $trees; do cp "$root/crates/moo-core/trees/$tree" "$out/trees/"; done

# The page asks the engine in a Web Worker instead of a server.
sed -i 's|<meta name="moo-backend" content="server">|<meta name="moo-backend" content="wasm">|' "$out/index.html"
grep -q '<meta name="moo-backend" content="wasm">' "$out/index.html" || {
    echo "build-site: index.html has no <meta name=\"moo-backend\" content=\"server\"> to switch" >&2
    exit 1
}

# Every file the site is made of, for the service worker, and a version made of their bytes.
cd "$out"
files=$(find . -type f ! -name sw.js ! -name files.json | sed 's|^\./||' | LC_ALL=C sort)
version=$(printf '%s\n' $files | xargs sha256sum | sha256sum | cut -c1-16)
{
    printf '{"version":"%s","files":["./"' "$version"
    for f in $files; do printf ',"%s"' "$f"; done
    printf ']}\n'
} > files.json
sed -i "s|^const VERSION = \"unbuilt\";|const VERSION = \"$version\";|" sw.js
grep -q "^const VERSION = \"$version\";" sw.js || { echo "build-site: sw.js has no VERSION line to stamp" >&2; exit 1; }

size=$(cat $files | wc -c)
wasm=$(gzip -9 -c pkg/moo_wasm_bg.wasm | wc -c)
echo "build-site: wrote $(echo "$files" | wc -l) files ($size bytes; the engine is $wasm bytes gzipped) to $out, version $version"
