"""The fast sampling loop: same distribution as top-k → top-p sampling, and dropping
finished rows from the batch must not change what the remaining rows generate."""

import torch
from transformers import LlamaConfig, LlamaForCausalLM

from synth.generation.decode import _pick, candidates, sample_rows
from synth.generation.params import params_from


def test_pick_matches_top_k_then_top_p():
    logits = torch.tensor([[3.0, 2.5, 2.0, 1.0, 0.5, -1.0]])
    params = params_from("default", {"top_k": 4, "top_p": 0.8, "temperature": 1.0})
    rng = torch.Generator().manual_seed(0)
    draws = torch.stack([_pick(logits, params, rng) for _ in range(20000)]).flatten()
    top4 = torch.softmax(logits[0, :4], dim=-1)
    keep = (top4.cumsum(0) - top4) <= 0.8  # the smallest prefix reaching 0.8
    expected = torch.zeros(6)
    expected[:4] = torch.where(keep, top4, 0) / torch.where(keep, top4, 0).sum()
    observed = torch.bincount(draws, minlength=6).float() / len(draws)
    assert torch.allclose(observed, expected, atol=0.015), (observed, expected)
    assert _pick(logits, params_from("default", {"do_sample": False}), rng).item() == 0


def test_min_p_keeps_what_transformers_keeps():
    """min_p after top-k and top-p, as transformers' warpers apply them in generate (the
    hf backend's other path): the same distribution, to float precision."""
    from transformers import MinPLogitsWarper, TopKLogitsWarper, TopPLogitsWarper

    torch.manual_seed(1)
    logits = torch.randn(3, 50) * 3
    for top_k, top_p, min_p in [(0, 1.0, 0.2), (10, 0.9, 0.1), (0, 0.95, 0.05), (5, 1.0, 0.5)]:
        params = params_from("default", {"top_k": top_k, "top_p": top_p, "min_p": min_p})
        scores = logits / params.temperature
        warpers = [TopKLogitsWarper(top_k)] if top_k else []
        warpers += [TopPLogitsWarper(top_p)] if top_p < 1 else []
        for warper in [*warpers, MinPLogitsWarper(min_p)]:
            scores = warper(None, scores)
        expected = torch.softmax(scores, dim=-1)
        probs, index = candidates(logits, params)
        ours = torch.zeros_like(expected).scatter(-1, index, probs)
        ours = ours / ours.sum(-1, keepdim=True)
        assert torch.allclose(ours, expected, atol=1e-6), (top_k, top_p, min_p)
        assert (ours > 0).sum() < (torch.softmax(logits, -1) > 0).sum()  # it dropped some


def tiny_model(config_class=LlamaConfig, model_class=LlamaForCausalLM, context: int = 128):
    """A two-layer decoder with random weights (seed 0), Llama's by default."""
    torch.manual_seed(0)
    config = config_class(
        vocab_size=64,
        hidden_size=32,
        intermediate_size=64,
        num_hidden_layers=2,
        num_attention_heads=4,
        num_key_value_heads=2,
        max_position_embeddings=context,
    )
    return model_class(config).eval()


class Enc(dict):
    __getattr__ = dict.__getitem__


def left_padded(rows):
    width = max(map(len, rows))
    ids = torch.tensor([[0] * (width - len(r)) + r for r in rows])
    mask = torch.tensor([[0] * (width - len(r)) + [1] * len(r) for r in rows])
    return Enc(input_ids=ids, attention_mask=mask)


def test_dropping_finished_rows_keeps_the_others_exact():
    model = tiny_model()
    params = params_from(
        "default", {"do_sample": False, "max_new_tokens": 12, "repetition_penalty": 1.0}
    )
    prompts = [[5, 9, 11, 3], [7, 2], [13, 14, 15, 16, 17, 18], [21, 22, 23]]

    def finished(token_lists):  # rows stop at different steps
        return [len(t) >= 2 + (t[0] % 7) for t in token_lists]

    batched = sample_rows(model, left_padded(prompts), params, {63}, finished)
    alone = [sample_rows(model, left_padded([p]), params, {63}, finished)[0] for p in prompts]
    assert batched == alone
    assert len({len(t) for t in batched}) > 1  # rows really left at different steps
