"""Runs mini-swe-agent (2.4.6) once on one checkout, as bench/peer/mini-swe-agent.ts asks, and writes what it did.

Input: a JSON file with task, cwd, model (a litellm name, e.g. openai/qwen2.5-coder-0.5b), base_url, step_limit,
mode ("tool": the swebench.yaml config with native tool calls; "text": swebench_backticks.yaml, commands in fenced
blocks), temperature, max_tokens (the output limit of each reply), trajectory (where mini-swe-agent saves its trajectory) and out (this script's result JSON).
The agent runs as its own swebench configs run it, with its local environment (bash in the checkout).
"""

import json
import sys
import time
from pathlib import Path

import yaml
from minisweagent.agents.default import DefaultAgent
from minisweagent.config import builtin_config_dir
from minisweagent.environments.local import LocalEnvironment
from minisweagent.models.litellm_model import LitellmModel
from minisweagent.models.litellm_textbased_model import LitellmTextbasedModel


def main() -> None:
    args = json.loads(Path(sys.argv[1]).read_text())
    config_file = "swebench.yaml" if args["mode"] == "tool" else "swebench_backticks.yaml"
    config = yaml.safe_load((builtin_config_dir / "benchmarks" / config_file).read_text())
    model_config = {k: v for k, v in config["model"].items() if k not in ("model_class", "model_name", "model_kwargs")}
    model_class = LitellmModel if args["mode"] == "tool" else LitellmTextbasedModel
    model = model_class(
        model_name=args["model"],
        model_kwargs={
            "api_base": args["base_url"],
            "api_key": "none",
            "temperature": args["temperature"],
            "max_tokens": args["max_tokens"],
            "drop_params": True,
            "timeout": args.get("request_timeout_s", 900),
        },
        cost_tracking="ignore_errors",
        **model_config,
    )
    env_config = {k: v for k, v in config["environment"].items() if k not in ("environment_class", "cwd")}
    env_config["env"] = {k: v for k, v in env_config.get("env", {}).items() if k != "BASH_ENV"}
    env = LocalEnvironment(cwd=args["cwd"], **env_config)
    agent_config = {k: v for k, v in config["agent"].items() if k not in ("agent_class", "mode", "confirm_exit")}
    agent_config.update(step_limit=args["step_limit"], cost_limit=0, output_path=Path(args["trajectory"]))
    agent = DefaultAgent(model, env, **agent_config)
    started = time.time()
    exit_status, error = "", ""
    try:
        exit_status = agent.run(args["task"]).get("exit_status", "")
    except Exception as e:  # the agent saved its trajectory; the bench records the failure and goes on
        exit_status, error = type(e).__name__, str(e)[:500]
    usage = {"prompt_tokens": 0, "completion_tokens": 0, "cached_tokens": 0}
    format_errors = 0
    for message in agent.messages:
        extra = message.get("extra") or {}
        response = extra.get("response")
        if isinstance(response, dict):
            u = response.get("usage") or {}
            usage["prompt_tokens"] += u.get("prompt_tokens") or 0
            usage["completion_tokens"] += u.get("completion_tokens") or 0
            details = u.get("prompt_tokens_details") or {}
            usage["cached_tokens"] += details.get("cached_tokens") or 0
        # A reply the agent could not use: its FormatError message carries the reply it answers (role user).
        if message.get("role") == "user" and (extra.get("interrupt_type") == "FormatError" or "response" in extra):
            format_errors += 1
    Path(args["out"]).write_text(
        json.dumps(
            {
                "exit_status": exit_status,
                "error": error,
                "model_calls": agent.n_calls,
                "seconds": round(time.time() - started, 1),
                "format_errors": format_errors,
                **usage,
            }
        )
    )


if __name__ == "__main__":
    main()
