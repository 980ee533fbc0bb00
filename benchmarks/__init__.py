"""Benchmarks for the five packages; run with ``make bench`` or ``python -m benchmarks``."""
