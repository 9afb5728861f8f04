"""The stages around GRPO in the CPU learning recipe (configs/learn-cpu.yaml), run by `python -m
atlas_gym.train` when the config has `warm_start` and `evaluate`:

1. reference traces: `atlas-gym eval --model policy:reference --split train` into <output_dir>/reference;
2. warm start (warm_start.py): SFT of a random Qwen3 on them, saved at the config's `model`;
3. before: `atlas-gym eval` of the warm-started model on the first `evaluate.tasks` train tasks, the model
   served locally by serve_model.py (so eval runs its own agent loop, env and rewards, as for any model);
4. GRPO (train.run), then after: the same evaluation of <output_dir>/final;
5. change: `atlas-gym compare` of the two (paired: the same tasks, resampled together), whose interval of
   the change is narrower than the two runs' own intervals side by side;

and <output_dir>/evaluation.json holds both summaries and the change (the training report shows them beside
the curve).
"""

from __future__ import annotations

import json
import subprocess
import threading
from http.server import ThreadingHTTPServer
from dataclasses import replace
from pathlib import Path
from typing import Any

from .client import EnvClient
from .config import TrainConfig
from .server_process import REPO_ROOT

EVALUATION = "evaluation.json"
_SUMMARY_KEYS = ("episodes", "mean_reward", "mean_reward_ci", "pass_rate", "pass_rate_ci", "mean_tool_calls")


def atlas_gym_eval(args: list[str], out: Path) -> dict[str, Any]:
    """Runs `atlas-gym eval <args> --out <out>` and returns its results.json; raises with its stderr if it fails."""
    _atlas_gym("eval", [*args, "--out", str(out)])
    return json.loads((out / "results.json").read_text())


def _atlas_gym(command: str, args: list[str]) -> None:
    done = subprocess.run(
        [str(REPO_ROOT / "bin" / "atlas-gym"), command, *args],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
    )
    if done.returncode != 0:
        raise RuntimeError(
            f"atlas-gym {command} {' '.join(args)} exited with {done.returncode}:\n{done.stderr[-2000:]}"
        )


def change_stage(config: TrainConfig) -> dict[str, Any]:
    """Stage 5: `atlas-gym compare <output_dir>/eval-before <output_dir>/eval-after` (paired bootstrap over the
    tasks, into <output_dir>/eval-compare); returns the overall change of mean reward and pass rate with
    their 95% intervals."""
    out = Path(config.output_dir, "eval-compare")
    before, after = (str(Path(config.output_dir, f"eval-{label}")) for label in ("before", "after"))
    _atlas_gym("compare", [before, after, "--out", str(out), "--seed", str(config.seed)])
    overall = json.loads((out / "compare.json").read_text())["overall"]
    change = {k: {"delta": overall[k]["delta"], "delta_ci": overall[k]["delta_ci"]}
              for k in ("mean_reward", "pass_rate")}
    print(
        "change after GRPO (paired 95% CI): "
        + ", ".join(f"{k.replace('_', ' ')} {v['delta']:+.3f} [{v['delta_ci'][0]:+.3f}, {v['delta_ci'][1]:+.3f}]"
                    for k, v in change.items()),
        flush=True,
    )
    return change


def warm_start_stage(config: TrainConfig, client: EnvClient) -> dict[str, Any]:
    """Stages 1 and 2: the reference traces, then the warm-started model at `config.model`."""
    from .warm_start import read_episodes, warm_start

    settings = config.warm_start
    assert settings is not None
    scenarios = settings.scenarios or config.scenarios
    check_disjoint(config, client)
    reference = Path(config.output_dir, "reference")
    atlas_gym_eval(
        ["--model", "policy:reference", "--scenarios", ",".join(scenarios), "--split", "train",
         "--n", str(settings.reference_tasks), *_levels_args(config)],
        reference,
    )
    episodes = read_episodes(reference / "episodes.jsonl", settings.skip_index_below)
    tools = {s: client.tools(s) for s in scenarios}
    print(f"warm start: {len(episodes)} reference episodes of {', '.join(scenarios)} -> {config.model}", flush=True)
    summary = warm_start(
        episodes,
        tools,
        config.model,
        epochs=settings.epochs,
        size=settings.size,
        vocab_size=settings.vocab_size,
        learning_rate=settings.learning_rate,
        batch_size=settings.batch_size,
        seed=config.seed,
    )
    print(f"warm start: {json.dumps(summary)}", flush=True)
    return summary


def evaluate_stage(config: TrainConfig, model_dir: str | Path, label: str) -> dict[str, Any]:
    """Stage 3 or 5: `atlas-gym eval` of the model on the first `evaluate.tasks` train tasks of each scenario,
    into <output_dir>/eval-<label>; returns the overall and per-scenario summaries."""
    from .serve_model import ModelServer, make_handler

    settings = config.evaluate
    assert settings is not None
    name = f"learn-cpu-{label}"
    server = ModelServer(str(model_dir), name)
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), make_handler(server))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        results = atlas_gym_eval(
            [
                "--model", f"openai:http://127.0.0.1:{httpd.server_port}/v1#{name}",
                "--scenarios", ",".join(config.scenarios),
                "--split", "train",
                "--n", str(settings.tasks),
                *_levels_args(config),
                "--k", str(settings.k),
                "--concurrency", "1",  # the model server answers one request at a time anyway
                "--seed", str(config.seed),
                "--reward", config.reward_mode,
                "--temperature", str(settings.temperature),
                "--max-tokens", str(settings.max_tokens),
                # TRL runs at most `max_turns` rounds of tool calls (train.tool_rounds); eval's --max-turns counts
                # model requests, each of which may call: the same number reaches the env either way.
                *(["--max-turns", str(config.max_turns)] if config.max_turns is not None else []),
            ],
            Path(config.output_dir, f"eval-{label}"),
        )
    finally:
        httpd.shutdown()
        httpd.server_close()
    summary = {
        "model": str(model_dir),
        "overall": {k: results["overall"].get(k) for k in _SUMMARY_KEYS},
        "scenarios": {s: {k: v.get(k) for k in _SUMMARY_KEYS} for s, v in results["scenarios"].items()},
    }
    overall = summary["overall"]
    print(
        f"evaluation {label}: mean reward {overall['mean_reward']:.3f}, pass rate {overall['pass_rate']:.3f} "
        f"({overall['episodes']} episodes)",
        flush=True,
    )
    return summary


def _levels_args(config: TrainConfig) -> list[str]:
    return ["--levels", ",".join(map(str, config.levels))] if config.levels else []


def check_disjoint(config: TrainConfig, client: EnvClient) -> None:
    """The warm start must not see a task that GRPO trains on or `evaluate` measures: `skip_index_below`
    must lie above every such task's index (with `levels`, those tasks are spread over more indices)."""
    from .config import ConfigError
    from .train import list_tasks

    settings = config.warm_start
    assert settings is not None
    counts = [config.train_tasks, config.evaluate.tasks if config.evaluate else 0]
    listed = list_tasks(client, replace(config, train_tasks=max(counts)))
    highest = max(t["index"] for tasks in listed.values() for t in tasks)
    if settings.skip_index_below <= highest:
        raise ConfigError(
            f"warm_start.skip_index_below ({settings.skip_index_below}) must be above {highest}, the highest task "
            "index that GRPO or evaluate uses, so that the warm start never sees those tasks"
        )


def write_evaluation(output_dir: str | Path, evaluations: dict[str, Any]) -> Path:
    """<output_dir>/evaluation.json: {before, after, change} (any may be missing when its stage did not run)."""
    path = Path(output_dir, EVALUATION)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(evaluations, indent=2))
    return path
