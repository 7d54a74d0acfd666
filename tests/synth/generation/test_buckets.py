"""Prompts grouped by length for CTranslate2: every prompt once, similar lengths together,
groups dealt to decoders in a fixed way."""

from hypothesis import given
from hypothesis import strategies as st

from synth.generation.buckets import group_by_length, share_among


def test_equal_lengths_stay_one_batch():
    assert group_by_length([30] * 10, 40) == [list(range(10))]


def test_two_clusters_far_apart_are_two_batches():
    lengths = [14, 196] * 10
    groups = group_by_length(lengths, 40)
    assert groups == [list(range(0, 20, 2)), list(range(1, 20, 2))]


def test_a_few_tokens_apart_is_not_worth_a_batch_of_its_own():
    # one more group costs 40 decoding steps of overhead; 3 tokens of prompt cost 3 steps
    assert group_by_length([50, 51, 52, 53], 40) == [[0, 1, 2, 3]]


@given(st.lists(st.integers(1, 400), min_size=1, max_size=80), st.integers(1, 120))
def test_every_prompt_lands_in_exactly_one_group_sorted_by_length(lengths, new_tokens):
    groups = group_by_length(lengths, new_tokens)
    assert sorted(i for g in groups for i in g) == list(range(len(lengths)))
    flat = [lengths[i] for g in groups for i in g]
    assert flat == sorted(lengths)


def test_groups_are_dealt_longest_first_to_the_least_loaded_decoder():
    lengths = [10] * 4 + [100] * 4 + [300] * 2
    groups = group_by_length(lengths, 40)
    shares = share_among(groups, lengths, 40, workers=2)
    assert len(shares) == 2 and sorted(i for s in shares for g in s for i in g) == list(range(10))
    assert share_among(groups, lengths, 40, workers=2) == shares  # deterministic
    assert share_among(groups[:1], lengths, 40, workers=4) == [groups[:1]]  # no idle decoders
