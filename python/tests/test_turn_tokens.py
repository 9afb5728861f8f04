"""The warm start trains on whole chats tokenized at once; a GRPO rollout tokenizes each turn's prompt alone
and generates from there. For what the warm start learned to carry over, every turn's prompt must be a token
prefix of the whole chat: the corpus tokenizer (atlas_gym.testing.build_tokenizer) may not merge the
generation prompt's closing newlines with the turn's first text. It did ("\\nCommented on " was one token),
and the warm-started model then met a context it had never seen at its final answer and after each write."""

from __future__ import annotations

from atlas_gym.recipe import atlas_gym_eval
from atlas_gym.testing import build_tokenizer
from atlas_gym.warm_start import chat_of, read_episodes, render

SCENARIO = "jira-comment-v1"


def test_each_turns_prompt_is_a_token_prefix_of_the_whole_chat(client, tmp_path):
    atlas_gym_eval(
        ["--model", "policy:reference", "--scenarios", SCENARIO, "--split", "train", "--levels", "1", "--n", "8"],
        tmp_path / "reference",
    )
    episodes = read_episodes(tmp_path / "reference" / "episodes.jsonl")
    tools = client.tools(SCENARIO)
    chats = [chat_of(e) for e in episodes]
    plain = build_tokenizer()
    tokenizer = build_tokenizer([render(plain, chat, tools, tokenize=False) for chat in chats], vocab_size=2048)
    checked = 0
    for chat in chats:
        whole = render(tokenizer, chat, tools, tokenize=True, return_dict=False)
        for turn, message in enumerate(chat):
            if message["role"] != "assistant":
                continue
            prompt = render(tokenizer, chat[:turn], tools, add_generation_prompt=True, tokenize=True, return_dict=False)
            assert whole[: len(prompt)] == prompt, (
                f"turn {turn}: the rollout's prompt ends in {tokenizer.convert_ids_to_tokens(prompt[-3:])}, "
                f"the whole chat has {tokenizer.convert_ids_to_tokens(whole[len(prompt) - 3 : len(prompt) + 1])}"
            )
            checked += 1
    assert checked >= 3 * len(chats)  # a read, the write, the verify and the final answer in each
