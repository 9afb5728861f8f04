"""Test helpers that need no download: a tiny randomly initialised Qwen3 with a byte-level tokenizer
carrying TRL's Qwen3 chat template (so TRL recognises the family and uses its Qwen3 tool-call parser
and training template), and scripted generation (TRL's own testing technique: `model.generate` is
replaced by a function that emits chosen text, so a random model still makes real tool calls).

Used by the CPU smoke test, the verl tests, `configs/tiny-cpu.yaml` and scripts/gpu-check.sh (a larger
random model on CUDA).
"""

from __future__ import annotations

import json
import re
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
    # ~1.2M parameters with an 8,192-token vocabulary: the CPU learning recipe (warm start, then GRPO).
    "learn": dict(
        hidden_size=96,
        intermediate_size=256,
        num_hidden_layers=4,
        num_attention_heads=4,
        num_key_value_heads=2,
        head_dim=24,
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


def build_tokenizer(corpus: list[str] | None = None, vocab_size: int = 4096, chat_template: str | None = None):
    """A byte-level BPE tokenizer with Qwen3's special tokens and chat template. Without a corpus it has
    the 256 byte tokens and no merges; with one, merges (which may span spaces) are learned from it,
    offline and deterministically, so the scenario's long prompt and tool schemas take a few hundred
    tokens instead of ~9,000 and CPU attention stays cheap. The chat template defaults to TRL's Qwen3 one.

    Runs of newlines are tokens of their own, never merged with the text around them (as Qwen's own
    pre-tokenizer keeps them): a generation prompt ends in "\n\n", and a merge such as "\nDone" would
    give a whole chat, tokenized at once for training, other tokens at a turn's start than the rollout's
    prompt, tokenized alone, ends with. A model warm-started on such chats meets an unseen context at
    every turn that starts with text."""
    from tokenizers import Regex, Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    if chat_template is None:
        from trl.chat_template_utils import qwen3_chat_template as chat_template

    alphabet = sorted(pre_tokenizers.ByteLevel.alphabet())
    core = Tokenizer(models.BPE(vocab={ch: i for i, ch in enumerate(alphabet)}, merges=[]))
    byte_level = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=corpus is None)
    newlines = pre_tokenizers.Split(Regex(r"\n+"), behavior="isolated")
    core.pre_tokenizer = pre_tokenizers.Sequence([newlines, byte_level]) if corpus else byte_level
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
    tokenizer.chat_template = chat_template
    return tokenizer


def build_random_qwen3(
    directory: str | Path,
    size: str = "tiny",
    seed: int = 0,
    corpus: list[str] | None = None,
    vocab_size: int = 4096,
) -> Path:
    """Writes a randomly initialised Qwen3ForCausalLM and its tokenizer (see build_tokenizer) to
    `directory`; no network."""
    import torch
    from transformers import Qwen3Config, Qwen3ForCausalLM

    directory = Path(directory)
    tokenizer = build_tokenizer(corpus, vocab_size=vocab_size)
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


# A scripted policy for jira-transition-v1 on a Qwen3 (Hermes) conversation, shared by the TRL and verl tests.
USER = re.compile(r"<\|im_start\|>user\n(.*?)<\|im_end\|>", re.S)
CALL = re.compile(r"<tool_call>\n(\{.*?\})\n</tool_call>", re.S)
RESPONSE = re.compile(r"<tool_response>\n(.*?)\n</tool_response>", re.S)


def transition_policy(text: str, row: int) -> str:
    """Even rows of the first turn solve the task (find the issue by summary if the prompt gives no key,
    list its transitions, take the one to the named status, with the resolution asked for); odd rows
    guess a transition id that does not exist."""
    request = USER.search(text).group(1)
    conversation = text[text.index(request) :]
    calls = [json.loads(c) for c in CALL.findall(conversation)]
    responses = RESPONSE.findall(conversation)
    key = re.search(r"\b[A-Z]+-\d+\b", request)
    if not calls and row % 2 == 1:
        return tool_call_text("jira_transition_issue", {"issueIdOrKey": "ENG-1", "transition": {"id": "999"}})
    if not calls and key is None:
        summary = re.search(r'"([^"]+)"', request).group(1)
        return tool_call_text("jira_search_issues", {"jql": f'summary ~ "{summary}"', "fields": ["summary"]})
    if not calls or calls[-1]["name"] == "jira_search_issues":
        if key is None:
            summary = re.search(r'"([^"]+)"', request).group(1)
            issues = json.loads(responses[-1])["issues"]
            key = next(i for i in issues if i["fields"]["summary"] == summary)["key"]
        else:
            key = key.group(0)
        return tool_call_text("jira_get_transitions", {"issueIdOrKey": key})
    if calls[-1]["name"] == "jira_get_transitions":
        key = calls[-1]["arguments"]["issueIdOrKey"]
        named = [t for t in json.loads(responses[-1])["transitions"] if t["to"]["name"] in request]
        target = max(named, key=lambda t: len(t["to"]["name"]))
        arguments = {"issueIdOrKey": key, "transition": {"id": target["id"]}}
        resolution = re.search(r"(?:resolution|Resolve it as) '?(.+?)'?\.$", request)
        if resolution and target["to"]["name"] == "Done":
            arguments["fields"] = {"resolution": {"name": resolution.group(1)}}
        return tool_call_text("jira_transition_issue", arguments)
    return "Done.<|im_end|>"
