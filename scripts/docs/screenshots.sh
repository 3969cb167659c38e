#!/usr/bin/env bash
# Screenshots of one HTML report per game (docs/screenshots/GAME.png), taken by headless
# Chromium: `referee verify --html` over the game's corpus directory with one answer file
# changed, so the report shows a mismatch with its board view.
# Usage: scripts/docs/screenshots.sh   (needs /usr/bin/chromium; builds referee in release mode)
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --release --quiet
root=$PWD
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# game, the case whose answer is changed, the wrong answer
while read -r game case wrong; do
    cp -r "corpus/$game" "$work/$game"
    printf '%s\n' "$wrong" > "$work/$game/$case.ans"
    (cd "$work" && "$root/target/release/referee" verify "$game" --out "$game-reports" \
        --html "$game.html" > /dev/null 2>&1) || true
    chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
        --window-size=1100,1300 --screenshot="$root/docs/screenshots/$game.png" \
        "file://$work/$game.html" 2> /dev/null
    echo "docs/screenshots/$game.png"
done <<'CASES'
pousse unequal-straights-one-to-two-o-wins X WINS
littlesquares run-of-11-against-5-and-3 first
somegame both-players-have-lines PLAYER 1
CASES
