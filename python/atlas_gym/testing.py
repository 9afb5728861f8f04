"""Test helpers that need no download: a tiny randomly initialised Qwen3 with a byte-level tokenizer
carrying TRL's Qwen3 chat template (so TRL recognises the family and uses its Qwen3 tool-call parser
and training template), and scripted generation (TRL's own testing technique: `model.generate` is
replaced by a function that emits chosen text, so a random model still makes real tool calls).

Used by the CPU smoke test and by scripts/gpu-check.sh (a larger random model on CUDA).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

# Qwen3's specials; the tool and think markers are ordinary added tokens there too (decoded, not skipped).
SPECIAL_TOKENS = ["<|endoftext|>", "<|im_start|>", "<|im_end|>"]
MARKER_TOKENS = ["<tool_call>", "</tool_call>", "<tool_response>", "</tool_response>", "<think>", "</think>"]

SIZES: dict[str, dict[str, int]] = {
    # ~40k parameters (mostly the embedding): the CPU smoke test. Two heads keep CPU attention cheap.
    "tiny": dict(
        hidden_size=16,
        intermediate_size=32,
        num_hidden_layers=2,
        num_attention_heads=2,
        num_key_value_heads=1,
        head_dim=8,
    ),
    # ~50M parameters: the GPU check.
    "small": dict(
        hidden_size=512,
        intermediate_size=1536,
        num_hidden_layers=12,
        num_attention_heads=8,
        num_key_value_heads=4,
        head_dim=64,
    ),
}


def build_tokenizer(corpus: list[str] | None = None, vocab_size: int = 4096):
    """A byte-level BPE tokenizer with Qwen3's special tokens and chat template. Without a corpus it has
    the 256 byte tokens and no merges; with one, merges (which may span spaces) are learned from it,
    offline and deterministically, so the scenario's long prompt and tool schemas take a few hundred
    tokens instead of ~9,000 and CPU attention stays cheap."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast
    from trl.chat_template_utils import qwen3_chat_template

    alphabet = sorted(pre_tokenizers.ByteLevel.alphabet())
    core = Tokenizer(models.BPE(vocab={ch: i for i, ch in enumerate(alphabet)}, merges=[]))
    core.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=corpus is None)
    core.decoder = decoders.ByteLevel()
    if corpus:
        trainer = trainers.BpeTrainer(vocab_size=vocab_size, initial_alphabet=alphabet, show_progress=False)
        core.train_from_iterator(corpus, trainer=trainer)
    tokenizer = PreTrainedTokenizerFast(
        tokenizer_object=core,
        eos_token="<|im_end|>",
        pad_token="<|endoftext|>",
        additional_special_tokens=SPECIAL_TOKENS,
    )
    tokenizer.add_tokens(MARKER_TOKENS)
    tokenizer.chat_template = qwen3_chat_template
    return tokenizer


def build_random_qwen3(
    directory: str | Path, size: str = "tiny", seed: int = 0, corpus: list[str] | None = None
) -> Path:
    """Writes a randomly initialised Qwen3ForCausalLM and its tokenizer (see build_tokenizer) to
    `directory`; no network."""
    import torch
    from transformers import Qwen3Config, Qwen3ForCausalLM

    directory = Path(directory)
    tokenizer = build_tokenizer(corpus)
    config = Qwen3Config(
        vocab_size=len(tokenizer),
        max_position_embeddings=32768,
        tie_word_embeddings=True,
        eos_token_id=tokenizer.eos_token_id,
        pad_token_id=tokenizer.pad_token_id,
        bos_token_id=None,
        **SIZES[size],
    )
    torch.manual_seed(seed)
    model = Qwen3ForCausalLM(config)
    model.generation_config.eos_token_id = tokenizer.eos_token_id
    model.generation_config.pad_token_id = tokenizer.pad_token_id
    model.save_pretrained(directory)
    tokenizer.save_pretrained(directory)
    return directory


def tool_call_text(name: str, arguments: dict[str, Any]) -> str:
    """An assistant turn that makes one tool call, in Qwen3's Hermes-style format."""
    return f"<tool_call>\n{json.dumps({'name': name, 'arguments': arguments})}\n</tool_call><|im_end|>"


def script_generation(model, tokenizer, policy: Callable[[str, int], str]) -> list[str]:
    """Replaces `model.generate`: for each row of the batch, `policy(conversation_text, row)` returns the
    assistant text to emit (ending with <|im_end|>). Returns the list of every conversation it saw."""
    import torch

    seen: list[str] = []
    pad = tokenizer.pad_token_id

    def generate(input_ids=None, attention_mask=None, **_: Any):
        rows = []
        for row, (ids, mask) in enumerate(zip(input_ids, attention_mask, strict=True)):
            text = tokenizer.decode(ids[mask.bool()].tolist(), skip_special_tokens=False)
            seen.append(text)
            rows.append(tokenizer.encode(policy(text, row), add_special_tokens=False))
        width = max(len(r) for r in rows)
        completion = torch.full((len(rows), width), pad, dtype=input_ids.dtype, device=input_ids.device)
        for i, ids in enumerate(rows):
            completion[i, : len(ids)] = torch.tensor(ids, dtype=input_ids.dtype)
        return torch.cat([input_ids, completion], dim=1)

    model.generate = generate
    return seen
