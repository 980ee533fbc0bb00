"""Renderings: text formats parse, pictures are well-formed and show the cells."""

from __future__ import annotations

import dataclasses

import json
import xml.etree.ElementTree as ET

import pytest

import nbdeps

CELLS = [("import math", 1), ("r = 2.0", 2), ("area = math.pi * r ** 2", 3),
         ("del r", 4), ('print("<b>&", area, missing)', 5)]


@pytest.fixture(scope="module")
def graph_and_findings():
    nb = nbdeps.load_notebook(CELLS)
    return nbdeps.build_graph(nb), nbdeps.check(nb)


def test_svg_is_well_formed_and_labels_cells_and_edges(graph_and_findings):
    graph, findings = graph_and_findings
    svg = nbdeps.to_svg(graph, findings)
    root = ET.fromstring(svg)
    texts = ["".join(t.itertext()) for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert "In [3]  cell 3" in texts  # 1-based position, as the notebook shows it
    assert "area = math.pi * r ** 2" in texts
    assert "math" in texts and "r" in texts  # edge labels
    assert any('print("<b>&", area, missing)' == t for t in texts)  # escaped, then read back
    assert "#fde0dc" in svg  # the error cell is coloured


def test_html_embeds_svg_and_findings_table(graph_and_findings):
    graph, findings = graph_and_findings
    page = nbdeps.to_html(graph, findings)
    assert page.startswith("<!DOCTYPE html>") and "<svg" in page and "ND101" in page
    assert "<script" not in page and "http://" not in page.replace("http://www.w3.org/2000/svg", "")


def test_dot_and_mermaid_name_every_cell_and_edge(graph_and_findings):
    graph, findings = graph_and_findings
    dot = nbdeps.to_dot(graph, findings)
    assert dot.startswith("digraph nbdeps {") and "c0 -> c2" in dot and 'label="math"' in dot
    mermaid = nbdeps.to_mermaid(graph, findings)
    assert mermaid.startswith("flowchart TD") and 'c0 -->|"math"| c2' in mermaid
    assert "<b>" not in mermaid  # user text is escaped


def test_json_and_networkx_round_trip_the_edges(graph_and_findings):
    graph, _ = graph_and_findings
    data = json.loads(nbdeps.to_json(graph))
    assert [(e["source"], e["target"], e["names"]) for e in data["edges"]] == [
        (e.source, e.target, list(e.names)) for e in graph.edges]
    g = nbdeps.to_networkx(graph)
    assert sorted(g.edges) == sorted((e.source, e.target) for e in graph.edges)
    assert g.nodes[2]["defines"] == ["area"]


def test_png_is_written_with_matplotlib(graph_and_findings, tmp_path):
    pytest.importorskip("matplotlib")
    graph, findings = graph_and_findings
    out = nbdeps.to_png(graph, tmp_path / "g.png", findings)
    data = out.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 5000


def test_png_without_matplotlib_names_the_extra(graph_and_findings, tmp_path, monkeypatch):
    import builtins

    real_import = builtins.__import__

    def no_matplotlib(name, *args, **kwargs):
        if name == "matplotlib" or name.startswith("matplotlib."):
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_matplotlib)
    with pytest.raises(nbdeps.MissingExtraError, match=r"pip install nbdeps\[png\]"):
        nbdeps.to_png(graph_and_findings[0], tmp_path / "g.png")


def test_text_report_lines():
    findings = nbdeps.check([("print(missing)", 1)])
    assert nbdeps.to_text(findings, "nb.ipynb") == (
        "nb.ipynb:cell 1 [1]:1:7: ND101 error: `missing` is defined in no cell of the notebook "
        "(deleted cell or hidden state): NameError on a fresh run\n")


def test_text_report_names_cells_by_position_and_id():
    nb = {"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [
        {"cell_type": "markdown", "id": "intro", "metadata": {}, "source": "# title"},
        {"cell_type": "code", "id": "use-it", "metadata": {}, "source": "print(missing)",
         "execution_count": 1, "outputs": []}]}
    (finding,) = nbdeps.check(nb)
    # position among all cells, then JupyterLab's [execution count]
    assert nbdeps.to_text([finding], "nb.ipynb").startswith(
        "nb.ipynb:cell 2 [1] (id use-it):1:7: ND101")
    data = finding.to_dict()
    assert (data["cell_position"], data["execution_count"], data["cell_id"], data["line"],
            data["column"]) == (2, 1, "use-it", 1, 7)
    assert "cell_index" not in data  # no field of the JSON counts from 0
    never = dataclasses.replace(finding, execution_count=None)
    assert nbdeps.to_text([never], "nb.ipynb").startswith("nb.ipynb:cell 2 (id use-it):1:7:")


BELOW = [("total = price * 2", 2), ("price = 10", 1), ("print(total)", 3)]


def test_reads_from_a_cell_below_are_drawn_distinctly_in_every_format(tmp_path):
    graph = nbdeps.build_graph(BELOW)
    assert [(e.source, e.target, e.names) for e in graph.backward_edges] == [(1, 0, ("price",))]
    assert [(e.source, e.target) for e in graph.edges] == [(0, 2)]
    svg = nbdeps.to_svg(graph)
    ET.fromstring(svg)
    assert svg.count('stroke-dasharray="6 4"') == 1 and "\u2191 price" in svg
    dot = nbdeps.to_dot(graph)
    assert "c1 -> c0" in dot and "style=dashed" in dot.split("c1 -> c0")[1].splitlines()[0]
    mermaid = nbdeps.to_mermaid(graph)
    assert 'c1 -.->|"\u2191 price"| c0' in mermaid and "linkStyle 1 " in mermaid
    data = json.loads(nbdeps.to_json(graph))
    assert data["backward_edges"] == [{"source": 1, "target": 0, "names": ["price"]}]
    assert nbdeps.to_networkx(graph).edges[1, 0]["kind"] == "backward"
    assert "stroke-dasharray" in nbdeps.to_html(graph)
    if pytest.importorskip("matplotlib"):
        assert nbdeps.to_png(graph, tmp_path / "g.png").stat().st_size > 3000
