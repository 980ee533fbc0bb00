#!/usr/bin/env bash
# The main job on the bundled examples, offline and with no LLM:
#   1. crashpredict: replay each example notebook in a real Jupyter kernel and predict
#      whether its next cell crashes (one does, with the diagnosis; one does not);
#   2. nbdeps: check the examples' execution history and draw one dependency graph;
#   3. benchkit modernize: make an old-style notebook run again with the offline codemods.
# Exit codes 0 (clean) and 1 (crash predicted / findings) are the expected outcomes here;
# anything else (2: could not run) fails the demo.
set -uo pipefail
cd "$(dirname "$0")/.."
BIN=.venv/bin
mkdir -p out

expect() {  # expect CODE... -- command: run it, fail unless its exit code is one of CODE
  local ok=() ; while [ "$1" != "--" ]; do ok+=("$1"); shift; done; shift
  echo "\$ ${*#$BIN/}"
  "$@"; local rc=$?
  for c in "${ok[@]}"; do [ "$rc" -eq "$c" ] && { echo; return 0; }; done
  echo "demo: '${*#$BIN/}' exited $rc" >&2; exit 1
}

if [ -d examples/crashpredict ]; then
  echo "== crashpredict: will the next cell crash? =="
  for nb in examples/crashpredict/*.ipynb; do
    expect 0 1 -- "$BIN/crashpredict" check "$nb"
  done
fi

echo "== nbdeps: execution-history hazards =="
expect 0 1 -- "$BIN/nbdeps" check examples/nbdeps/*.ipynb
for nb in examples/nbdeps/*.ipynb; do
  expect 0 1 -- "$BIN/nbdeps" order "$nb"
done
first=$(ls examples/nbdeps/*.ipynb | head -n 1)
expect 0 -- "$BIN/nbdeps" graph "$first" -o out/graph.html
echo "demo: graph of $first written to out/graph.html"

echo "== benchkit modernize: an old notebook made to run again, offline =="
expect 0 -- "$BIN/benchkit" modernize examples/modernize/pandas_numpy_legacy.ipynb -o out/modernize
echo "demo: the modernized notebook and its trajectory are in out/modernize/"
