"""PIL images and matplotlib figures/axes."""

from __future__ import annotations

import pytest

import rtextract

# These tests check what the facts say. A loaded CI machine can spend the default
# 30 ms budget on a library's first-use costs (lazy imports), cutting the
# facts short; the budget itself is tested in test_numpy_pandas and test_hostile.
BIG = 10_000.0


def describe(obj, **options):
    return rtextract.describe(obj, **{"budget_ms": BIG, **options})


def test_pil_image_is_not_loaded(tmp_path, check_facts):
    Image = pytest.importorskip("PIL.Image")
    path = tmp_path / "x.png"
    Image.new("RGBA", (30, 20)).save(path)
    image = Image.open(path)
    facts = describe(image)
    check_facts(facts)
    assert (facts.kind, facts.get("size"), facts.get("mode")) == ("PIL.Image", [30, 20], "RGBA")
    assert facts.get("n_channels") == 4
    assert facts.get("format") == "PNG"
    assert vars(image)["_im"] is None  # pixels still not decoded


def test_matplotlib_figure_grid_and_axes(check_facts):
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(2, 3, figsize=(6, 4))
    axes[0, 0].plot([1, 2, 3])
    axes[0, 0].set_title("loss")
    try:
        facts = describe(fig)
        check_facts(facts)
        assert (facts.kind, facts.get("n_axes"), facts.get("grid")) == ("matplotlib.Figure", 6, [2, 3])
        assert facts.get("size_inches") == [6.0, 4.0]
        ax = facts.child("axes[0]")
        assert (ax.get("title"), ax.get("n_lines"), ax.get("subplot")) == ("loss", 1, [2, 3, 0])
        grid = describe(axes)
        assert grid.get("shape") == [2, 3]
    finally:
        plt.close(fig)
