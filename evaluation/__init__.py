"""Measuring verdict quality and cost against claims labelled by professional fact-checkers.

The dataset readers (`averitec`, `climate_fever`) turn a third-party file into plain data: the
claims with their gold outcome, and the pages of an offline web built from the dataset's
evidence. `web` loads those pages into the page cache and the local index exactly as a real
fetch would, and cuts the run off from the real internet. `runner` submits each claim and runs
the real claim pipeline on it; `metrics` and `report` turn the verdicts into figures. `evaldata`
says where the third-party data lives for the benchmarks (bench/) that read it.

The pipeline knows nothing of any of this: it searches, reads and decides as it always does,
and the only thing replaced is the outside web.
"""
