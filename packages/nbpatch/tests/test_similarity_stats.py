"""Edit similarity, the t-test, and output normalisation (no kernels)."""

from __future__ import annotations

import math

import pytest

import nbpatch
from nbpatch._normalize import facts_match, normalize_text, output_texts, texts_match
from nbpatch._stats import betainc, one_sample_t_test, student_t_sf


@pytest.mark.parametrize(
    ("a", "b", "kw", "expected"),
    [
        ("x = 1", "x = 1", {}, 1.0),
        ("x = 1", "x = 2", {}, 0.8),
        ("", "", {}, 1.0),
        ("abc", "", {}, 0.0),
        ("x = 1", "x = 2", {"method": "ratio"}, 0.8),
        ("kitten", "sitting", {}, 1 - 3 / 7),
        ("kitten", "sitting", {"method": "ratio"}, 1 - 5 / 13),
        ("x = 1\n\n\ny = 2", "x = 1\ny = 2", {}, 1.0),
        ("x = 1\n\n\ny = 2", "x = 1\ny = 2", {"ignore_blank": False}, 1 - 2 / 13),
        ("# load\nx = 1  # one", "x = 1", {"ignore_comments": True}, 1.0),
        ("s = '#x'  # c", "s = '#x'", {"ignore_comments": True}, 1.0),
    ],
)
def test_code_similarity(a, b, kw, expected):
    assert nbpatch.similarity(a, b, **kw) == pytest.approx(expected)


def test_notebook_similarity_counts_code_cells_only(nb):
    a = nb("# Title", "x = 1", "y = 2")
    b = nb("# Another title entirely", "x = 1", "y = 3")
    assert nbpatch.similarity(a, b) == pytest.approx(1 - 1 / len("x = 1\ny = 2"))
    assert nbpatch.similarity(a, b, per_cell=True) == pytest.approx((1.0 + 0.8) / 2)


def test_per_cell_similarity_counts_unpaired_cells_as_zero(nb):
    a = nb("x = 1", "y = 2")
    b = nb("x = 1")
    assert nbpatch.similarity(a, b, per_cell=True) == pytest.approx(0.5)


def test_similarity_rejects_an_unknown_method():
    with pytest.raises(ValueError, match="unknown method 'cosine'"):
        nbpatch.similarity("a", "b", method="cosine")


def test_similarity_of_notebook_files(nb, tmp_path):
    nbpatch.write_notebook(nb("x = 1"), tmp_path / "a.ipynb")
    nbpatch.write_notebook(nb("x = 2"), tmp_path / "b.ipynb")
    assert nbpatch.similarity(str(tmp_path / "a.ipynb"), tmp_path / "b.ipynb") == 0.8


@pytest.mark.parametrize(("a", "b", "x", "expected"), [
    (2, 3, 0.4, 0.5248), (0.5, 10, 0.9, 0.9999999999815198), (20, 0.5, 0.3, 5.173e-12),
    (1, 1, 0.25, 0.25),
])
def test_incomplete_beta_matches_known_values(a, b, x, expected):
    assert betainc(a, b, x) == pytest.approx(expected, rel=1e-6)


def test_t_test_matches_scipy_when_present():
    samples = [0.91, 0.93, 0.90, 0.95, 0.92]
    t, p = one_sample_t_test(samples, 0.9)
    assert (t, p) == pytest.approx((2.5574480523640295, 0.06280761100070081), rel=1e-5)
    stats = pytest.importorskip("scipy.stats")
    ref = stats.ttest_1samp(samples, 0.9)
    assert (t, p) == pytest.approx((ref.statistic, ref.pvalue), rel=1e-9)
    assert student_t_sf(0.0, 4) == pytest.approx(0.5)


def test_t_test_with_no_spread():
    assert one_sample_t_test([1.0, 1.0], 1.0) == (0.0, 1.0)
    assert one_sample_t_test([1.0, 1.0], 2.0)[1] == 0.0
    with pytest.raises(ValueError):
        one_sample_t_test([1.0], 1.0)


@pytest.mark.parametrize(("raw", "expected"), [
    ("<Model at 0x7f3a2b1c9d90>", "<Model at 0x<address>>"),
    ("saved 2024-05-01T12:30:01.123Z", "saved <timestamp>"),
    ("started at 12:30:01", "started at <time>"),
    ("Wall time: 1.23 s", "Wall time: <duration>"),
    (" 10%|█         | 10/100 [00:01<00:09, 9.9it/s]\r100%|██████████| 100/100 [00:10<00:00, 9.9it/s]\ndone",
     "done"),
    ("1/5 [=====>....] - ETA: 3s\r5/5 [==============================] - 1s 2ms/step - loss: 0.51",
     "5/5 <bar> - <duration> <duration> - loss: 0.51"),
    ("32/32 ━━━━━━━━━━━━━━━━━━━━ 0s 2ms/step - loss: 0.5", "32/32 <bar> <duration> <duration> - loss: 0.5"),
    ("x  \n\n", "x"),
])
def test_normalize_text(raw, expected):
    assert normalize_text(raw) == expected


def test_numbers_compare_within_tolerance_but_integers_exactly():
    assert texts_match("loss 0.5000001", "loss 0.5", 1e-6)
    assert not texts_match("loss 0.51", "loss 0.5", 1e-6)
    assert not texts_match("n = 10", "n = 11", 0.5)
    assert not texts_match("a 1", "b 1", 0.5)
    assert facts_match({"sum": 1.0000001, "shape": [3]}, {"sum": 1.0, "shape": [3]}, 1e-6)
    assert not facts_match({"shape": [3]}, {"shape": [4]}, 1e-6)
    assert not facts_match({"value": True}, {"value": 1}, 1e-6)
    assert not facts_match(math.nan, 1.0, 1e-6)


def test_output_texts_keep_stdout_results_errors_and_skip_stderr():
    outputs = [
        {"output_type": "stream", "name": "stdout", "text": "a\n"},
        {"output_type": "stream", "name": "stderr", "text": "DeprecationWarning: old\n"},
        {"output_type": "stream", "name": "stdout", "text": "b\n"},
        {"output_type": "display_data", "data": {"image/png": "AAAA", "text/plain": "<Figure>"}},
        {"output_type": "error", "ename": "KeyError", "evalue": "'y'", "traceback": []},
    ]
    assert output_texts(outputs) == ("a\nb", "<Figure>", "<image/png>", "KeyError: 'y'")
