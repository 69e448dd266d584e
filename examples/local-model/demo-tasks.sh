#!/usr/bin/env bash
# The demo's five tasks (examples/calc/tasks.yaml) with the local model as every task's coder, on a Temporal dev
# server of their own: the run behind the local-model table in docs/models.md. Bounded for a small model on 2 cores: at
# most MAX_STEPS coder steps per attempt and MAX_RETRIES retries (the registry caps every reply at 256 tokens); MODEL
# is the coder (default local:qwen2.5-coder-1.5b; local:qwen2.5-coder-0.5b is 2 to 3 times faster).
# Usage: examples/local-model/demo-tasks.sh [OUT_DIR]   (needs taskloop model install [--model NAME] first)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
out="${1:-$(mktemp -d)}"
steps="${MAX_STEPS:-6}"
retries="${MAX_RETRIES:-1}"
model="${MODEL:-local:qwen2.5-coder-1.5b}"
taskloop() { node "$root/bin/taskloop.js" "$@"; }
mkdir -p "$out"

# The demo's project as a fresh repository, and its tasks file with the local coder and the bounds.
repo="$out/calc"
mkdir -p "$repo"
cp -r "$root/examples/calc/calc.py" "$root/examples/calc/stats.py" "$root/examples/calc/tests" "$repo/"
git -C "$repo" init -q -b main && git -C "$repo" add -A
git -C "$repo" -c user.name=demo -c user.email=demo@taskloop.local commit -qm 'The calculator, with bugs'
project="local-demo-$(date +%Y%m%d%H%M%S)"
sed -e "s/^project: demo/project: $project/" \
  -e "s#^repo: \\.#repo: $repo#" \
  -e "s/^  maxRetries: 2/  maxRetries: $retries\\n  maxCoderSteps: $steps/" \
  -e "s#models: { coder: scripted:scripts/[a-z-]*\\.json }#models: { coder: \"$model\" }#" \
  "$root/examples/calc/tasks.yaml" >"$out/tasks.yaml"

port=$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
export TEMPORAL_ADDRESS="127.0.0.1:$port" TASKLOOP_TASK_QUEUE="$project" TASKLOOP_HOME="$out/state"
export TASKLOOP_AGENTS_FILE="${AGENTS_FILE:-$root/examples/local-model/registry.json}"
# Started directly (not through the function), so $! is the process itself and the trap stops it.
node "$root/bin/taskloop.js" server --port "$port" --headless --memory >"$out/server.log" 2>&1 &
server=$!
# The worker exits when it cannot reach Temporal: start it once the server serves (slow on a loaded machine).
for _ in $(seq 120); do grep -q 'serving at' "$out/server.log" && break; sleep 1; done
node "$root/bin/taskloop.js" worker >"$out/worker.log" 2>&1 &
worker=$!
trap 'status=$?; kill $worker $server 2>/dev/null; wait $worker $server 2>/dev/null; exit $status' EXIT
for _ in $(seq 120); do grep -q 'serving task queues' "$out/worker.log" && break; sleep 1; done

echo "load before: $(uptime)" | tee "$out/load.txt"
started=$(date +%s)
taskloop schedule "$out/tasks.yaml" --wait --json >"$out/report.json" || true
echo "elapsed: $(($(date +%s) - started)) s" | tee -a "$out/load.txt"
echo "load after: $(uptime)" | tee -a "$out/load.txt"
echo "report: $out/report.json"
