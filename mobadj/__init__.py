"""mobadj: adjudicator, email judge and card-game engines for Mobtown II and friends."""

__version__ = "0.1.0"


def build() -> str:
    """``"compiled"`` when the batch's hot path runs as C extensions (the optional build of
    setup.py, docs/performance.md), else ``"pure"``: ``mobadj --version`` says which."""
    from importlib.util import find_spec

    spec = find_spec("mobadj.batch.runner")
    origin = spec.origin if spec is not None else None
    return "pure" if origin is None or origin.endswith(".py") else "compiled"
