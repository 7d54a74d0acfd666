"""HR tickets: the taxonomy, variable samplers, surface forms, writer traits and shapes."""
