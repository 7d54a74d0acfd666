"""A KV cache written in place, one row per sequence, and the forward pass that uses it.

transformers' dynamic cache grows by concatenation: every decode step copies the whole
cache, a row that leaves copies it again, and a row that joins re-pads it to the widest
row in flight. Here the keys and values of `rows` sequences are allocated once
(layers × rows × kv heads × width × head dim). A forward (`extend`) writes each row's new
keys and values at that row's own positions; a finished row's place is taken by the next
request, written over it; a row is shortened by setting its length. Nothing is copied
when rows leave or join, and the cache is reallocated only when a row outgrows its width
(by a quarter at least, so rarely).

`extend` prefills rows named on the host; `step` decodes rows 0..n-1 from tokens that
stay on the device. The forward runs the model's own modules (embeddings, norms, projections, rotary
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


def _rounded(width: int) -> int:
    return -(-width // WIDTH_STEP) * WIDTH_STEP


class RowCache:
    """Keys and values of up to `rows` sequences, each in its own row, with each row's
    length (`lengths`, on the host: widths and positions are known without a wait for
    the device) and the tokens it holds (`tokens`: what the repetition penalty reads, and
    what a continued row compares its new prompt with)."""

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
        self.device, self.dtype = parameter.device, parameter.dtype
        self.lengths = np.zeros(rows, dtype=np.int64)
        self._allocate(min(_rounded(width), self.max_width))

    def _allocate(self, width: int) -> None:
        shape = (self.layers, self.rows, self.kv_heads, width, self.head_dim)
        self.keys = torch.zeros(shape, dtype=self.dtype, device=self.device)
        self.values = torch.zeros(shape, dtype=self.dtype, device=self.device)
        self.tokens = torch.zeros((self.rows, width), dtype=torch.long, device=self.device)
        self.width = width

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

    def move(self, source: int, target: int) -> None:
        """What row `source` holds into row `target` (one row's keys and values copied);
        `source` is left empty."""
        n = int(self.lengths[source])
        self.keys[:, target, :, :n] = self.keys[:, source, :, :n]
        self.values[:, target, :, :n] = self.values[:, source, :, :n]
        self.tokens[target, :n] = self.tokens[source, :n]
        self.lengths[target], self.lengths[source] = n, 0

    def held(self, row: int) -> list[int]:
        """The tokens `row` holds."""
        return self.tokens[row, : self.lengths[row]].tolist()

    def history(self, rows: torch.Tensor, width: int) -> torch.Tensor:
        """The tokens `rows` hold, `width` wide; past a row's length its first token
        stands in (a repeat of a token it holds changes no penalty)."""
        held = self.tokens[rows, :width]
        lengths = torch.from_numpy(self.lengths[rows.cpu().numpy()]).to(self.device)
        inside = torch.arange(width, device=self.device)[None, :] < lengths[:, None]
        return torch.where(inside, held, held[:, :1])


@torch.inference_mode()
def extend(model, cache: RowCache, rows: list[int], ids: list[list[int]]) -> torch.Tensor:
    """Feed each row in `rows` its tokens `ids` after what it holds (a prefill, or the
    rest of a continued row's prompt); returns the float logits after each row's last
    new token."""
    device = cache.device
    counts = np.array([len(x) for x in ids], dtype=np.int64)
    starts = cache.lengths[rows]
    width = int((starts + counts).max())
    cache.fit(width)
    new = int(counts.max())
    tokens = torch.tensor([x + [0] * (new - len(x)) for x in ids], device=device)
    offsets = torch.arange(new, device=device)
    positions = torch.from_numpy(starts).to(device)[:, None] + offsets
    valid = offsets[None, :] < torch.from_numpy(counts).to(device)[:, None]
    last = torch.from_numpy(counts - 1).to(device)
    logits = _forward(
        model,
        cache,
        torch.tensor(rows, device=device),
        tokens,
        positions,
        valid,
        width,
        last,
        in_place=False,
    )
    cache.lengths[rows] = starts + counts
    return logits


@torch.inference_mode()
def step(model, cache: RowCache, last: torch.Tensor, feeding: np.ndarray) -> torch.Tensor:
    """A decode step over rows 0..len(feeding)-1, in place: each row where `feeding`
    reads its token in `last` (on the device); the others are fed nothing and get
    meaningless logits. Returns the float logits of every row."""
    device = cache.device
    top = len(feeding)
    width = int(cache.lengths[:top][feeding].max()) + 1
    cache.fit(width)
    positions = torch.from_numpy(cache.lengths[:top]).to(device)[:, None]
    valid = torch.from_numpy(feeding).to(device)[:, None]
    zero = torch.zeros(top, dtype=torch.long, device=device)
    logits = _forward(
        model,
        cache,
        torch.arange(top, device=device),
        last[:top, None],
        positions,
        valid,
        width,
        zero,
        in_place=True,
    )
    cache.lengths[:top] += feeding
    return logits


def _forward(
    model, cache: RowCache, row_index, tokens, positions, valid, width: int, last, *, in_place: bool
) -> torch.Tensor:
    """The model's forward over `tokens` (rows × new, at `positions`; `valid` marks the
    real ones) of the rows `row_index`: writes their keys and values into the cache and
    attends over each row's own positions up to `width`; returns the float logits at each
    row's `last` new token. `in_place`: the rows are 0..n-1, read from the cache without
    a copy."""
    batch, new = tokens.shape
    write_rows = row_index[:, None].expand(batch, new)[valid]
    write_at = positions[valid]
    key_at = torch.arange(width, device=cache.device)
    allowed = key_at[None, None, :] <= positions[:, :, None]
    # a padding query reads position 0 only: finite, and never used
    allowed = torch.where(valid[:, :, None], allowed, key_at[None, None, :] == 0)[:, None]

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
        cache.keys[i][write_rows, :, write_at] = k.transpose(1, 2)[valid]
        cache.values[i][write_rows, :, write_at] = v.transpose(1, 2)[valid]
        if in_place:
            keys, values = cache.keys[i][:batch, :, :width], cache.values[i][:batch, :, :width]
        else:
            keys = cache.keys[i][row_index, :, :width]
            values = cache.values[i][row_index, :, :width]
        out = F.scaled_dot_product_attention(
            q, keys, values, attn_mask=allowed, scale=attention.scaling, enable_gqa=True
        )
        hidden = hidden + attention.o_proj(out.transpose(1, 2).reshape(batch, new, -1))
        hidden = hidden + layer.mlp(layer.post_attention_layernorm(hidden))
    hidden = decoder.norm(hidden[torch.arange(batch, device=cache.device), last])
    cache.tokens[write_rows, write_at] = tokens[valid]
    return model.lm_head(hidden).float()
