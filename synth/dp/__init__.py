"""Differential privacy: the schema of a private table, the PrivBayes network, its
noise, the ε ledger and the account of a refresh root. The only code that reads private rows."""
