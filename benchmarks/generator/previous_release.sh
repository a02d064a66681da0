#!/bin/sh
# Makes a checkout of a previous release of twisty for `twisty bench generate --baseline DIR`: the tree of
# the commit (default 04b5415, the release before the counting walk moved into the compiled core), its core
# built in place, and the commit in DIR/RELEASE for the results to name.
# Usage: benchmarks/generator/previous_release.sh DIR [COMMIT]
set -eu
dir=$1
commit=${2:-04b5415}
repo=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$dir"
git -C "$repo" archive "$commit" | tar -x -C "$dir"
(cd "$dir" && python setup.py build_ext --inplace -q >/dev/null 2>&1)
git -C "$repo" rev-parse "$commit" > "$dir/RELEASE"
echo "$dir: twisty at $(cat "$dir/RELEASE"), core built"
