"""Generation: parameters, the engine seam and its Hugging Face engine, the batched
recursive rollout, trimming, entity location, slips, and rendering planned documents
into contract rows."""
