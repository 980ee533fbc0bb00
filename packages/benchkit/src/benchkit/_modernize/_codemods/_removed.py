"""Removed keywords that did something no keyword does today: dropping them is no repair.

``Ridge(normalize=True)`` centred every column and divided it by its l2 norm before the
fit; scikit-learn 1.2 removed the keyword. Dropping it fits another model (the penalty
now weighs unscaled coefficients), so neither the knowledge base nor the resolvers drop
it; the report names the call and what would do the same. Dropping a value that was the
default (``normalize=False``) is faithful and stays allowed, as is dropping ``normalize``
from ``LinearRegression`` (least squares with an intercept gives the same coefficients
and predictions whatever the columns' scale).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["RemovedKeyword", "REMOVED_KEYWORDS", "unfaithful_drop"]


@dataclass(frozen=True, slots=True, kw_only=True)
class RemovedKeyword:
    """A keyword whose removal left nothing that does what it did.

    ``names`` are the callables' last names, ``harmless`` the values (as code) that were
    the default: dropping those changes nothing.
    """

    library: str
    names: frozenset[str]
    keyword: str
    removed: str
    did: str
    instead: str
    harmless: tuple[str, ...] = ("False",)

    def note(self, name: str, value: str) -> str:
        return (f"{name}({self.keyword}={value}): {self.keyword}= was removed in "
                f"{self.library} {self.removed}; it {self.did}. No keyword does that today "
                f"and dropping it fits another model: {self.instead}")


_PENALISED = frozenset((
    "Ridge", "RidgeCV", "RidgeClassifier", "RidgeClassifierCV", "Lasso", "LassoCV",
    "ElasticNet", "ElasticNetCV", "Lars", "LarsCV", "LassoLars", "LassoLarsCV", "LassoLarsIC",
    "OrthogonalMatchingPursuit", "OrthogonalMatchingPursuitCV", "BayesianRidge",
    "ARDRegression", "MultiTaskLasso", "MultiTaskElasticNet"))

REMOVED_KEYWORDS: tuple[RemovedKeyword, ...] = (
    RemovedKeyword(
        library="scikit-learn", names=_PENALISED, keyword="normalize", removed="1.2",
        did="centred each column and divided it by its l2 norm before the fit",
        instead="make_pipeline(StandardScaler(), Model(alpha=...)) with the penalty "
                "rescaled for the number of training samples (alpha * n_samples for Ridge) "
                "does the same fit; that needs the data's size, so it is left to you"),
)


def unfaithful_drop(name: str, keyword: str, value: str | None = None) -> RemovedKeyword | None:
    """The entry saying that dropping ``keyword=value`` from ``name(...)`` is no repair
    (``value`` ``None``: any value other than a harmless one)."""
    for entry in REMOVED_KEYWORDS:
        if name in entry.names and keyword == entry.keyword:
            if value is not None and value.strip() in entry.harmless:
                return None
            return entry
    return None
