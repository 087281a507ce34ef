"""The live-path load benchmark: real clients against a daphne it starts itself (`make bench-live`)."""
