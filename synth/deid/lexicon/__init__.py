"""The word lists and gazetteers both sides of de-identification read: what a first or
last name is, which words make an organisation, a greeting, a place, a role at work or a
length of time. Data lives in synth/data/deid/*.yaml (and Faker's and GeoNames' public
lists); these modules load it once and answer lookups. Nothing here finds or replaces a
span."""
