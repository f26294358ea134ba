"""Benchmarks that print figures, each run as a script: `.venv/bin/python bench/NAME.py`."""
