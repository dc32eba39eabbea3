"""The reports app's writes (docs/architecture.md, "Where writes happen"): the staff daily digest."""
