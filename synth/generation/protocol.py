"""What hrsynth's server (synth.generation.server) and its OpenAI-compatible client
(synth.generation.openai_engine) agree on beyond the OpenAI API, in a module of its own
so that the client does not import the server."""

OWNER = "hrsynth"  # /v1/models' owned_by: how a client knows it may send STOPPING
STOPPING = ("sentences_per_slot", "paragraphs_per_slot")
