"""Design-space exploration: `run.py` estimates every point of a parameter space (`hls.explore`) on an
executor, `result.py` holds what it returns (`Exploration`: rows, objective, Pareto front, its page)."""
