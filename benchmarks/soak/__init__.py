"""Soak harness: longer reliability runs than the test suite; ``python -m benchmarks.soak`` runs them all.

Each part module exposes ``run(budget_seconds: float, workdir: Path) -> dict[str, int | float]``.
"""
