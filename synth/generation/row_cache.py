"""A KV cache written in place, one row per sequence, and the forward pass that uses it.

transformers' dynamic cache grows by concatenation: every decode step copies the whole
cache, a row that leaves copies it again, and a row that joins re-pads it to the widest
row in flight. Here the keys and values of `rows` sequences are allocated once
(layers × rows × kv heads × width × head dim). A forward (`extend`) writes each row's new
keys and values at that row's own positions; a finished row's place is taken by the next
request, written over it; a row is shortened by setting its length. Nothing is copied
when rows leave or join, and the cache is reallocated only when a row outgrows its width
(by a quarter at least, so rarely).

`extend` prefills rows named on the host; `forward_step` decodes rows 0..n-1 from tokens
that stay on the device, at positions the device holds (row_step builds the whole decode
step on it). The forward runs the model's own modules (embeddings, norms, projections, rotary
embedding, MLP, head) and does attention itself, over each row's own keys: a query sees
its row's positions up to its own, so rows of different lengths share a batch without
padding each other. It covers the decoder layout of Llama, Mistral and Qwen2 (full
attention, grouped KV heads); any other model decodes through `decode.decode_stream`.
"""

import numpy as np
import torch
import torch.nn.functional as F
from transformers.models.llama.modeling_llama import apply_rotary_pos_emb

# Decoders laid out as Llama's (q/k/v/o projections, pre-norms, a rotary embedding on the
# model, no sliding window): what `extend` computes. Checked against each model's own
# forward by tests/synth/generation/test_row_cache.py (Llama and Qwen2).
LAYOUTS = ("llama", "mistral", "qwen2")
# Widths are rounded up to this many tokens.
WIDTH_STEP = 64


def supports(model) -> bool:
    """Whether `extend` computes `model`'s forward: a Llama-layout decoder with full
    attention everywhere."""
    config = model.config
    if config.model_type not in LAYOUTS:
        return False
    if getattr(config, "use_sliding_window", False) or (
        config.model_type == "mistral" and getattr(config, "sliding_window", None)
    ):
        return False
    layers = getattr(getattr(model, "model", None), "layers", None)
    return bool(layers) and all(
        hasattr(layer.self_attn, "q_proj") and not hasattr(layer.self_attn, "q_norm")
        for layer in layers
    )


def attention_dtype(device: torch.device, dtype: torch.dtype) -> torch.dtype:
    """The dtype a row's keys and values are kept and attended in: the model's, except
    half precision on a CPU, where attention runs in float32 (torch's CPU attention in
    bf16 took 9 ms a layer for 8 rows at 2,048 tokens against 1.1 ms in float32:
    benchmarks/results/decode_steps.md)."""
    if device.type == "cpu" and dtype in (torch.bfloat16, torch.float16):
        return torch.float32
    return dtype


def _rounded(width: int) -> int:
    return -(-width // WIDTH_STEP) * WIDTH_STEP


class RowCache:
    """Keys and values of up to `rows` sequences, each in its own row, with each row's
    length and the tokens it holds (`tokens`: what the repetition penalty reads).

    A row's length is kept twice: `lengths` on the host (exact after each host read:
    widths, positions and prefill plans are known without a wait for the device) and
    `device_lengths`, which the decode step advances on the device (row_step)."""

    def __init__(self, model, rows: int, width: int):
        config = model.config.get_text_config()
        self.layers = config.num_hidden_layers
        self.kv_heads = config.num_key_value_heads or config.num_attention_heads
        self.head_dim = getattr(config, "head_dim", None) or (
            config.hidden_size // config.num_attention_heads
        )
        self.max_width = getattr(config, "max_position_embeddings", None) or 1 << 20
        self.rows = rows
        parameter = next(model.parameters())
        self.device = parameter.device
        self.dtype = attention_dtype(parameter.device, parameter.dtype)
        self.lengths = np.zeros(rows, dtype=np.int64)
        self.device_lengths = torch.zeros(rows, dtype=torch.long, device=self.device)
        # Bumped when the tensors are reallocated: a captured step reads the old ones.
        self.generation = 0
        self._allocate(min(_rounded(width), self.max_width))

    def _allocate(self, width: int) -> None:
        shape = (self.layers, self.rows, self.kv_heads, width, self.head_dim)
        self.keys = torch.zeros(shape, dtype=self.dtype, device=self.device)
        self.values = torch.zeros(shape, dtype=self.dtype, device=self.device)
        self.tokens = torch.zeros((self.rows, width), dtype=torch.long, device=self.device)
        self.width = width
        self.generation += 1

    def fit(self, width: int) -> None:
        """Make room for `width` positions per row (a quarter more than now, or `width`,
        rounded), keeping what the rows hold; refused past the model's context."""
        if width <= self.width:
            return
        if width > self.max_width:
            raise ValueError(
                f"a sequence of {width} tokens is longer than the model's context "
                f"({self.max_width} tokens); shorten the prompt or max_new_tokens"
            )
        old = (self.keys, self.values, self.tokens)
        self._allocate(min(_rounded(max(width, self.width + self.width // 4)), self.max_width))
        held = old[0].shape[3]
        self.keys[:, :, :, :held] = old[0]
        self.values[:, :, :, :held] = old[1]
        self.tokens[:, :held] = old[2]

    def set_length(self, rows, lengths) -> None:
        """Rows' lengths, on the host and on the device."""
        self.lengths[rows] = lengths
        index = torch.as_tensor(np.atleast_1d(rows), device=self.device)
        self.device_lengths[index] = torch.as_tensor(
            np.atleast_1d(self.lengths[rows]), device=self.device
        )

    def move(self, source: int, target: int) -> None:
        """What row `source` holds into row `target` (one row's keys and values copied);
        `source` is left empty."""
        n = int(self.lengths[source])
        self.keys[:, target, :, :n] = self.keys[:, source, :, :n]
        self.values[:, target, :, :n] = self.values[:, source, :, :n]
        self.tokens[target, :n] = self.tokens[source, :n]
        self.set_length([target, source], [n, 0])


@torch.inference_mode()
def extend(model, cache: RowCache, rows: list[int], ids: list[list[int]]) -> torch.Tensor:
    """Feed each row in `rows` its tokens `ids` after what it holds (a prefill, or the
    rest of a continued row's prompt); returns the float logits after each row's last
    new token. Where each token is written is planned on the host (index tensors, one
    copy to the device): the device is never waited on."""
    device = cache.device
    counts = np.array([len(x) for x in ids], dtype=np.int64)
    starts = cache.lengths[rows]
    width = int((starts + counts).max())
    cache.fit(width)
    new = int(counts.max())
    tokens = torch.tensor([x + [0] * (new - len(x)) for x in ids], device=device)
    offsets = np.arange(new)
    positions = starts[:, None] + offsets
    valid = offsets[None, :] < counts[:, None]
    batch_at, token_at = np.nonzero(valid)
    plan = torch.from_numpy(
        np.stack([batch_at, token_at, np.asarray(rows)[batch_at], positions[valid]])
    ).to(device)
    logits = _forward(
        model,
        cache,
        torch.tensor(rows, device=device),
        tokens,
        torch.from_numpy(positions).to(device),
        torch.from_numpy(valid).to(device),
        plan,
        width,
        torch.from_numpy(counts - 1).to(device),
    )
    cache.set_length(rows, starts + counts)
    return logits


def forward_step(model, cache: RowCache, token: torch.Tensor, n: int, width: int) -> torch.Tensor:
    """One token for each of rows 0..n-1 (`token`, on the device) at its row's
    `device_lengths` position, its keys and values written there; attention reads each
    row's first `width` positions, in place. Returns the float logits of every row. Only
    device tensors are read: nothing waits for the device. The caller advances the
    lengths of the rows it fed; a row it did not feed has written past its length, where
    nothing reads (its own scratch place)."""
    rows = torch.arange(n, device=cache.device)
    positions = cache.device_lengths[:n]
    zero = torch.zeros_like(rows)
    plan = torch.stack([rows, zero, rows, positions])
    return _forward(model, cache, None, token[:, None], positions[:, None], None, plan, width, zero)


def _forward(
    model, cache: RowCache, row_index, tokens, positions, valid, plan, width: int, last
) -> torch.Tensor:
    """The model's forward over `tokens` (rows × new, at `positions`; `valid` marks the
    real ones, None: all) of the rows `row_index` (None: rows 0..n-1, read from the cache
    in place): writes their keys and values into the cache where `plan` says (four index
    tensors: the batch row and column of each real token, and the cache row and position
    it goes to) and attends over each row's own positions up to `width`; returns the
    float logits at each row's `last` new token."""
    batch, new = tokens.shape
    batch_at, token_at, write_rows, write_at = plan
    key_at = torch.arange(width, device=cache.device)
    allowed = key_at[None, None, :] <= positions[:, :, None]
    if valid is not None:  # a padding query reads position 0 only: finite, and never used
        allowed = torch.where(valid[:, :, None], allowed, key_at[None, None, :] == 0)
    allowed = allowed[:, None]

    decoder = model.model
    hidden = decoder.embed_tokens(tokens)
    cos, sin = decoder.rotary_emb(hidden, positions)
    for i, layer in enumerate(decoder.layers):
        attention = layer.self_attn
        x = layer.input_layernorm(hidden)
        q = attention.q_proj(x).view(batch, new, -1, cache.head_dim).transpose(1, 2)
        k = attention.k_proj(x).view(batch, new, -1, cache.head_dim).transpose(1, 2)
        v = attention.v_proj(x).view(batch, new, -1, cache.head_dim).transpose(1, 2)
        q, k = apply_rotary_pos_emb(q, k, cos, sin)
        q, k, v = q.to(cache.dtype), k.to(cache.dtype), v.to(cache.dtype)
        cache.keys[i][write_rows, :, write_at] = k.transpose(1, 2)[batch_at, token_at]
        cache.values[i][write_rows, :, write_at] = v.transpose(1, 2)[batch_at, token_at]
        if row_index is None:
            keys, values = cache.keys[i][:batch, :, :width], cache.values[i][:batch, :, :width]
        else:
            keys = cache.keys[i][row_index, :, :width]
            values = cache.values[i][row_index, :, :width]
        out = F.scaled_dot_product_attention(
            q, keys, values, attn_mask=allowed, scale=attention.scaling, enable_gqa=True
        )
        out = out.transpose(1, 2).reshape(batch, new, -1).to(hidden.dtype)
        hidden = hidden + attention.o_proj(out)
        hidden = hidden + layer.mlp(layer.post_attention_layernorm(hidden))
    hidden = decoder.norm(hidden[torch.arange(batch, device=cache.device), last])
    cache.tokens[write_rows, write_at] = tokens[batch_at, token_at]
    return model.lm_head(hidden).float()
