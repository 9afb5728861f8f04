"""Supervised warm start of a tiny model on the reference solutions' traces (the first stage of the CPU
learning recipe, configs/learn-cpu.yaml; GRPO is the second).

    python -m atlas_gym.warm_start --episodes out/ref/episodes.jsonl --server http://127.0.0.1:4010 \
        --out runs/learn-cpu/sft [--skip-index-below 48] [--levels 1] [--epochs 4] [--scenarios a,b] [--init DIR]

The traces are `atlas-gym eval --model policy:reference --split train` episodes: each becomes one chat
(system, user, the reference's tool calls, the tool results, its final answer) with the scenario's tools as
the env server lists them. Every chat is rendered exactly as the GRPO rollouts and `atlas_gym.serve_model`
render theirs: TRL's prefix-preserving Qwen3 training template, thinking off, the server's tool schemas
(`prompt_tools: server`). From those texts it builds, offline, a byte-level BPE tokenizer (merges learned
from them) and a randomly initialised Qwen3, then trains it with TRL's SFTTrainer on the assistant tokens
only (the template's generation markers), in batches of similar lengths, and saves model and tokenizer to
--out. Episodes whose task index is below --skip-index-below (or whose level is not in --levels) are left
out, so the tasks GRPO and the before/after evaluation use are not seen here.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from .client import EnvClient

TOKENIZER_CHATS = 96  # the BPE merges are learned from this many chats (more barely shortens them, and is slow)


def chat_of(episode: dict[str, Any]) -> list[dict[str, Any]]:
    """The episode's conversation as a chat-template input: tool results filled in from its calls (the log
    keeps them there) and tool-call arguments as objects, as TRL renders the calls its rollouts make."""
    observations = {call["tool_call_id"]: call["observation"] for call in episode["calls"]}
    chat = []
    for message in episode["messages"]:
        if message["role"] == "tool":
            chat.append({"role": "tool", "content": observations.get(message["tool_call_id"], "")})
        elif message.get("tool_calls"):
            calls = [
                {
                    "type": "function",
                    "function": {"name": c["function"]["name"], "arguments": json.loads(c["function"]["arguments"])},
                }
                for c in message["tool_calls"]
            ]
            chat.append({"role": "assistant", "content": message.get("content") or "", "tool_calls": calls})
        else:
            chat.append({"role": message["role"], "content": message.get("content") or ""})
    return chat


def read_episodes(path: str | Path, skip_index_below: int = 0) -> list[dict[str, Any]]:
    """The scored, passing reference episodes of an eval run's episodes.jsonl (a failed one is no model)."""
    episodes = [json.loads(line) for line in Path(path).read_text().splitlines() if line.strip()]
    kept = [e for e in episodes if e["index"] >= skip_index_below and (e.get("score") or {}).get("passed")]
    if not kept:
        raise ValueError(f"{path}: no passing episode with a task index of {skip_index_below} or more")
    return kept


def training_template(tokenizer) -> str:
    """TRL's prefix-preserving training template for the tokenizer's chat template (what GRPO renders with)."""
    from trl.chat_template_utils import get_training_chat_template

    return get_training_chat_template(tokenizer) or tokenizer.chat_template


def render(tokenizer, chat: list[dict[str, Any]], tools: list[dict[str, Any]], **kwargs):
    return tokenizer.apply_chat_template(
        chat,
        tools=tools,
        chat_template=training_template(tokenizer),
        enable_thinking=False,
        **kwargs,
    )


def build_model(directory: str | Path, texts: list[str], size: str, vocab_size: int, seed: int) -> None:
    """A random Qwen3 whose tokenizer's merges are learned from `texts` (see testing.build_random_qwen3)."""
    from .testing import build_random_qwen3

    build_random_qwen3(directory, size=size, seed=seed, corpus=texts, vocab_size=vocab_size)


def copy_model(source: str | Path, directory: str | Path) -> None:
    """An earlier warm start's model and tokenizer, saved again at `directory` (to continue its training)."""
    from transformers import AutoModelForCausalLM, AutoTokenizer

    AutoModelForCausalLM.from_pretrained(source).save_pretrained(directory)
    AutoTokenizer.from_pretrained(source).save_pretrained(directory)


def warm_start(
    episodes: list[dict[str, Any]],
    tools_by_scenario: dict[str, list[dict[str, Any]]],
    out: str | Path,
    epochs: float = 3.0,
    size: str = "learn",
    vocab_size: int = 8192,
    learning_rate: float = 3e-3,
    batch_size: int = 8,
    seed: int = 0,
    init: str | Path | None = None,
) -> dict[str, Any]:
    """Builds the tokenizer and model at `out` (or copies them from `init`, an earlier warm start, to train
    it further), trains them on the episodes and saves them there."""
    from datasets import Dataset
    from transformers import AutoTokenizer
    from trl import SFTConfig, SFTTrainer

    from .testing import build_tokenizer

    out = Path(out)
    chats = [(chat_of(e), tools_by_scenario[e["scenario"]]) for e in episodes]
    if init is not None:
        copy_model(init, out)
    else:
        plain = build_tokenizer()  # the same template; bytes only, to render the corpus the merges come from
        texts = [render(plain, chat, tools, tokenize=False) for chat, tools in chats[:TOKENIZER_CHATS]]
        build_model(out, texts, size, vocab_size, seed)
    tokenizer = AutoTokenizer.from_pretrained(out)
    rows = []
    for chat, tools in chats:
        encoded = render(tokenizer, chat, tools, tokenize=True, return_dict=True, return_assistant_tokens_mask=True)
        rows.append({"input_ids": list(encoded["input_ids"]), "assistant_masks": list(encoded["assistant_masks"])})
    lengths = [len(r["input_ids"]) for r in rows]
    args = SFTConfig(
        output_dir=str(out / "sft-trainer"),
        num_train_epochs=epochs,
        per_device_train_batch_size=batch_size,
        learning_rate=learning_rate,
        lr_scheduler_type="cosine",
        warmup_steps=10,
        max_length=max(lengths),
        train_sampling_strategy="group_by_length",  # batches of similar lengths: little padding
        logging_steps=10,
        save_strategy="no",
        report_to="none",
        use_cpu=True,
        bf16=False,
        seed=seed,
        dataloader_num_workers=0,
    )
    started = time.monotonic()
    trainer = SFTTrainer(model=str(out), args=args, train_dataset=Dataset.from_list(rows), processing_class=tokenizer)
    result = trainer.train()
    trainer.model.save_pretrained(out)
    tokenizer.save_pretrained(out)
    losses = [entry["loss"] for entry in trainer.state.log_history if "loss" in entry]
    summary = {
        "episodes": len(rows),
        "tokens_per_episode": {"min": min(lengths), "mean": round(sum(lengths) / len(lengths)), "max": max(lengths)},
        "vocab_size": len(tokenizer),
        "parameters": sum(p.numel() for p in trainer.model.parameters()),
        "steps": result.global_step,
        "first_loss": losses[0] if losses else None,
        "last_loss": losses[-1] if losses else None,
        "train_seconds": round(time.monotonic() - started, 1),
    }
    (out / "warm_start.json").write_text(json.dumps(summary, indent=2))
    return summary


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m atlas_gym.warm_start", description=__doc__.split("\n\n")[0])
    parser.add_argument("--episodes", required=True, help="episodes.jsonl of `eval --model policy:reference`")
    parser.add_argument("--server", required=True, help="env server URL (for the scenarios' tool schemas)")
    parser.add_argument("--out", required=True, help="directory for the warm-started model and tokenizer")
    parser.add_argument("--skip-index-below", type=int, default=0, help="leave out tasks with a smaller index")
    parser.add_argument("--epochs", type=float, default=3.0)
    parser.add_argument("--learning-rate", type=float, default=3e-3)
    parser.add_argument("--vocab-size", type=int, default=8192)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--scenarios", help="comma-separated: keep only these scenarios' episodes (default: all)")
    parser.add_argument("--levels", help="comma-separated: keep only these levels' episodes (default: all)")
    parser.add_argument("--batch-size", type=int, default=8)
    parser.add_argument("--init", help="an earlier warm start's directory to train further (default: a new model)")
    args = parser.parse_args(argv)
    try:
        episodes = read_episodes(args.episodes, args.skip_index_below)
        if args.scenarios:
            episodes = [e for e in episodes if e["scenario"] in args.scenarios.split(",")]
            if not episodes:
                raise ValueError(f"{args.episodes}: no passing episode of {args.scenarios}")
        if args.levels:
            levels = {int(level) for level in args.levels.split(",")}
            episodes = [e for e in episodes if e["level"] in levels]
            if not episodes:
                raise ValueError(f"{args.episodes}: no passing episode of level {args.levels}")
    except (OSError, ValueError, KeyError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    client = EnvClient(args.server)
    tools = {s: client.tools(s) for s in sorted({e["scenario"] for e in episodes})}
    summary = warm_start(
        episodes, tools, args.out, args.epochs, vocab_size=args.vocab_size, learning_rate=args.learning_rate,
        batch_size=args.batch_size, seed=args.seed, init=args.init,
    )
    print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
