"""How often the model's first reply alone fixes an instance: the model's ceiling, apart from the loop.

Takes the opening of a kept coder transcript (its system and first user message, exactly as taskloop sent them),
asks an OpenAI-compatible server (`taskloop model serve`) for DRAWS first replies at TEMPERATURE (seeds 1..DRAWS),
applies each reply's fenced `replace_in_file` calls to a fresh copy of the instance's base (an `old` must occur exactly
once in one non-test .py file; the path is not read, as the coder's tool redirects a wrong one), and runs the
instance's own test command on it, in bubblewrap without network where bwrap is installed. A draw passes when an
edit was applied and the tests pass. Stricter than taskloop's replace_in_file (no line-number stripping, no whitespace tolerance), so a figure
from here is a lower bound of what one turn can do.

  python3 bench/probe/first_reply_draws.py --transcript T.json --base-url http://127.0.0.1:8091/v1 \
      (--suite evals/starter.yaml --instance ID | --repo DIR --tests NODEID...) [--draws 10] [--temperature 0.7]

With --instance it first checks the harness: the base must fail the tests and the fix's own code change pass them
(else it stops: a figure there would say nothing about the model). Prints one line a draw and
`RESULT <name> <passed> of <draws>`.
"""

import argparse
import glob
import json
import os
import re
import shutil
import subprocess
import tempfile
import time
import urllib.request

FENCED_JSON = re.compile(r"```(?:json)?\s*(\{.*?\})\s*```", re.S)
TEST_PATH = re.compile(r"(^|/)tests?/|(^|/)test_[^/]*\.py$|_test\.py$")


def load_suite(suite_file: str) -> dict:
    """An eval suite, as taskloop's YAML (PyYAML needed) or the same object as JSON."""
    if suite_file.endswith(".json"):
        return json.load(open(suite_file))
    try:
        import yaml
    except ImportError:
        raise SystemExit(f"--suite {suite_file}: reading YAML needs PyYAML (python3 -m pip install pyyaml)") from None
    return yaml.safe_load(open(suite_file))


DEFAULT_COMMAND = ["python3", "-m", "pytest", "-p", "no:cacheprovider"]


def instance_base(suite_file: str, instance_id: str) -> tuple[str, list[str], dict[str, str], str]:
    """A checkout of the instance's base with the fix's test files (tests shown), its test command with the
    instance's test ids (FAIL_TO_PASS, then PASS_TO_PASS), its environment and its fix commit."""
    suite = load_suite(suite_file)
    found = [i for i in suite["instances"] if i["id"] == instance_id]
    if not found:
        raise SystemExit(f"--instance: {instance_id!r} is not an instance of {suite_file}")
    inst = found[0]
    source = inst.get("mirror") or inst["repo"]
    base = tempfile.mkdtemp(prefix="draws-base-")
    subprocess.run(["git", "clone", "-q", "--no-checkout", source, base], check=True)
    fix = inst["fixCommit"]
    subprocess.run(["git", "-C", base, "checkout", "-q", f"{fix}^"], check=True)
    changed = subprocess.run(
        ["git", "-C", base, "diff", "--name-only", f"{fix}^", fix], capture_output=True, text=True, check=True
    ).stdout.split()
    tests = [f for f in changed if TEST_PATH.search(f)]
    if tests:
        subprocess.run(["git", "-C", base, "checkout", "-q", fix, "--", *tests], check=True)
    defaults = suite.get("defaults", {})
    env = {**defaults.get("testEnv", {}), **inst.get("testEnv", {})}
    command = inst.get("testCommand") or defaults.get("testCommand") or DEFAULT_COMMAND
    return base, [*command, *inst["failToPass"], *inst.get("passToPass", [])], env, fix


def check_harness(base: str, fix: str, command: list[str], env: dict[str, str]) -> None:
    """A draw's figure means something only where the base fails these tests and the fix's own code change passes."""
    if run_tests(base, command, env):
        raise SystemExit("the instance's tests pass at its base here: nothing to fix, no figure")
    checkout = tempfile.mkdtemp(prefix="draws-oracle-")
    shutil.copytree(base, checkout, dirs_exist_ok=True)
    changed = subprocess.run(
        ["git", "-C", checkout, "diff", "--name-only", f"{fix}^", fix], capture_output=True, text=True, check=True
    ).stdout.split()
    code = [f for f in changed if not TEST_PATH.search(f)]
    subprocess.run(["git", "-C", checkout, "checkout", "-q", fix, "--", *code], check=True)
    passed = run_tests(checkout, command, env)
    shutil.rmtree(checkout)
    if not passed:
        raise SystemExit("the fix's own change fails these tests here (an environment the instance needs?): no figure")
    print("harness: the base fails the tests and the fix's change passes them", flush=True)


def first_reply(base_url: str, messages: list[dict], temperature: float, seed: int, max_tokens: int) -> str:
    body = {"messages": messages, "temperature": temperature, "seed": seed, "max_tokens": max_tokens}
    request = urllib.request.Request(
        f"{base_url.rstrip('/')}/chat/completions", json.dumps(body).encode(), {"Content-Type": "application/json"}
    )
    reply = json.load(urllib.request.urlopen(request, timeout=900))
    return reply["choices"][0]["message"].get("content") or ""


def replace_calls(text: str) -> list[dict]:
    calls = []
    for block in FENCED_JSON.findall(text):
        try:
            call = json.loads(block)
        except json.JSONDecodeError:
            continue
        if isinstance(call, dict) and call.get("name") == "replace_in_file":
            calls.append(call.get("arguments") or {})
    return calls


def apply_edits(checkout: str, edits: list[dict]) -> int:
    applied = 0
    for edit in edits:
        old, new = edit.get("old") or "", edit.get("new") or ""
        if not old or old == new:
            continue
        for file in glob.glob(f"{checkout}/**/*.py", recursive=True):
            if TEST_PATH.search(os.path.relpath(file, checkout)):
                continue
            text = open(file).read()
            if text.count(old) == 1:
                open(file, "w").write(text.replace(old, new))
                applied += 1
                break
    return applied


def run_tests(checkout: str, command: list[str], env: dict[str, str]) -> bool:
    if shutil.which("bwrap"):
        # The edited code is the model's: it runs with the host read-only, no network, and only its copy writable.
        command = ["bwrap", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp",
                   "--bind", checkout, checkout, "--unshare-all", "--die-with-parent", "--chdir", checkout, *command]
    result = subprocess.run(command, cwd=checkout, capture_output=True, env={**os.environ, **env}, timeout=300)
    return result.returncode == 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--transcript", required=True, help="a coder transcript.json kept by taskloop")
    parser.add_argument("--base-url", required=True, help="the server's OpenAI base URL, e.g. http://127.0.0.1:8091/v1")
    parser.add_argument("--suite")
    parser.add_argument("--instance")
    parser.add_argument("--repo", help="a folder holding the base (instead of --suite and --instance)")
    parser.add_argument("--tests", nargs="*", default=[])
    parser.add_argument("--draws", type=int, default=10)
    parser.add_argument("--temperature", type=float, default=0.7)
    parser.add_argument("--max-tokens", type=int, default=512, help="taskloop's coder-small-text sends 512")
    args = parser.parse_args()
    if args.instance:
        base, command, env, fix = instance_base(args.suite or "evals/starter.yaml", args.instance)
        check_harness(base, fix, command, env)
        name = args.instance
    elif args.repo and args.tests:
        base, command, env = args.repo, [*DEFAULT_COMMAND, *args.tests], {}
        name = os.path.basename(os.path.abspath(args.repo))
    else:
        raise SystemExit("give --instance (with --suite) or --repo with --tests")
    opening = json.load(open(args.transcript))[:2]
    messages = [{"role": m["role"], "content": m["content"]} for m in opening]
    passed = 0
    for seed in range(1, args.draws + 1):
        started = time.time()
        edits = replace_calls(first_reply(args.base_url, messages, args.temperature, seed, args.max_tokens))
        checkout = tempfile.mkdtemp(prefix="draw-")
        shutil.copytree(base, checkout, dirs_exist_ok=True, ignore=shutil.ignore_patterns(".git"))
        applied = apply_edits(checkout, edits)
        ok = applied > 0 and run_tests(checkout, command, env)
        shutil.rmtree(checkout)
        passed += ok
        news = json.dumps([e.get("new") for e in edits])[:160]
        print(f"{name} seed {seed}: {'PASS' if ok else 'fail'} edits={len(edits)} applied={applied} "
              f"{time.time() - started:.0f}s {news}", flush=True)
    print(f"RESULT {name} {passed} of {args.draws}", flush=True)


if __name__ == "__main__":
    main()
