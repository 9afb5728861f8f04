"""The per-step reward summary and early stopping, against hand-computed values and the GRPO test vector
of rl-integration.md §5 (rewards [1,0,0,1]: mean 0.5, Bessel std 0.577350)."""

from __future__ import annotations

import pytest

from atlas_gym.stats import EarlyStopping, group_advantages, groups, sample_std, step_summary


def test_the_reference_vector_group_std():
    assert sample_std([1, 0, 0, 1]) == pytest.approx(0.577350, abs=1e-6)
    summary = step_summary([1, 0, 0, 1], group_size=4)
    assert summary["mean_reward"] == 0.5 and summary["std_reward"] == pytest.approx(0.577350, abs=1e-6)
    assert summary["zero_variance_share"] == 0.0 and summary["groups"] == 1


def test_grpo_advantages_are_non_zero_when_a_group_differs_and_zero_when_equal():
    # The test vector: rewards [1,0,0,1] give A = ±0.865875 with group scaling, ±0.5 without (Dr. GRPO).
    assert group_advantages([1, 0, 0, 1], 4) == pytest.approx([0.865875, -0.865875, -0.865875, 0.865875], abs=1e-6)
    assert group_advantages([1, 0, 0, 1], 4, scale="none") == pytest.approx([0.5, -0.5, -0.5, 0.5])
    # One group that differs and one whose rewards are all equal (the flat tiny-cpu run's every group).
    mixed = group_advantages([0.25, 0.75, 0.6, 0.6], 2)
    assert mixed[0] < 0 < mixed[1] and mixed[0] == pytest.approx(-mixed[1])
    assert mixed[2:] == [0.0, 0.0]
    assert group_advantages([0.0] * 8, 8) == [0.0] * 8 == group_advantages([1.0] * 8, 8, scale="none")
    with pytest.raises(ValueError, match="scale must be"):
        group_advantages([1, 0], 2, scale="batch")


def test_groups_are_consecutive_runs_of_g_in_sample_order():
    assert groups([1, 0, 0.5, 0.5, 0.2, 0.9], 2) == [[1, 0], [0.5, 0.5], [0.2, 0.9]]
    with pytest.raises(ValueError, match="do not split into groups of 4"):
        groups([1, 0, 1], 4)


def test_step_summary_of_a_mixed_step():
    rewards = [1.0, 1.0, 0.0, 0.5, 0.25, 0.25, 0.75, 0.0]
    summary = step_summary(rewards, group_size=2, tool_calls=[3, 3, 1, 2, 2, 2, 4, 0])
    assert summary["mean_reward"] == pytest.approx(0.46875)
    assert (summary["min_reward"], summary["max_reward"]) == (0.0, 1.0)
    # group stds: 0, 0.353553, 0, 0.530330 → mean 0.220971
    assert summary["std_reward"] == pytest.approx(0.220971, abs=1e-6)
    assert summary["zero_variance_share"] == 0.5
    assert summary["mean_tool_calls"] == 2.125 and summary["rollouts"] == 8


def test_unscored_rollouts_are_left_out_like_trl_nans():
    summary = step_summary([None, 1.0, 0.0, 0.0], group_size=2)
    assert summary["mean_reward"] == pytest.approx(1 / 3) and summary["unscored"] == 1
    assert summary["zero_variance_share"] == 1.0  # [1.0] alone and [0, 0]: neither carries a signal
    empty = step_summary([], group_size=2)
    assert empty["mean_reward"] is None and empty["zero_variance_share"] is None


def test_early_stopping_waits_for_a_full_window_at_the_threshold():
    stop = EarlyStopping(window=3, threshold=0.95)
    assert [stop.update(r) for r in [1.0, 1.0]] == [False, False]  # window not full yet
    assert stop.update(0.8) is False  # mean 0.933
    assert stop.update(None) is False  # a step with no score changes nothing
    assert stop.update(1.0) is False and stop.rolling_mean == pytest.approx((1.0 + 0.8 + 1.0) / 3)
    assert stop.update(1.0) is False  # 0.8, 1, 1 → 0.933
    assert stop.update(0.95) is True  # 1, 1, 0.95 → 0.983
    with pytest.raises(ValueError, match="window"):
        EarlyStopping(window=0, threshold=0.9)
