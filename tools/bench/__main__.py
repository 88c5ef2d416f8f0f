"""Benchmarks: `python -m tools.bench --help` (make bench; docs/benchmarks.md)."""
import sys

from tools.bench.report import main

sys.exit(main())
