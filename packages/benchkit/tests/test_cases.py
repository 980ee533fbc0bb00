from __future__ import annotations

import csv
import json
import zipfile

import pytest

from benchkit import CaseError, load_cases, replay_plan
from benchkit._xlsx import read_xlsx_rows


def test_load_cases_reads_layout_and_case_json(tiny_cases):
    cases = {c.name: c for c in load_cases(tiny_cases)}
    assert sorted(cases) == ["NBspecific_1", "numpy_1", "pandas_1", "python_1"]
    assert cases["pandas_1"].labels.ename == "keyerror"
    assert cases["pandas_1"].labels.library_group == "pandas"  # from the name
    assert cases["NBspecific_1"].versions == ("reproduced", "fixed")


def test_replay_plan_orders_by_execution_count_and_skips_unexecuted(tmp_path, write_case):
    write_case(tmp_path, "pandas_7",
               [("a = 1", 3), ("never ran", None), ("b = 2", 1), ("c = a + b", 4), ("boom", 5), ("after", 6)],
               error_at=4)
    (case,) = load_cases(tmp_path)
    plan = replay_plan(case, "reproduced")
    assert [i for i, _ in plan.prefix] == [2, 0, 3]  # counts 1, 3, 4; 'after' ran later
    assert plan.target_index == 4 and plan.target_source == "boom"
    assert plan.cell_name(4) == "cell 5 [5] (id c004)"  # position, execution count, id


def test_cells_are_named_by_position_counting_markdown_cells(tmp_path):
    import nbformat

    from benchkit._cases import cell_name

    folder = tmp_path / "numpy_8"
    folder.mkdir()
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell("# intro"),
                nbformat.v4.new_code_cell("x = 1", execution_count=1),
                nbformat.v4.new_raw_cell("raw"),
                nbformat.v4.new_code_cell("x.y", execution_count=2,
                                          outputs=[nbformat.v4.new_output("error", ename="E", evalue="", traceback=[])])]
    nb.cells[3].id = "tgt"
    nbformat.write(nb, folder / "numpy_8_reproduced.ipynb")
    (case,) = load_cases(tmp_path)
    plan = replay_plan(case, "reproduced")
    assert (plan.target_index, plan.cell_name(plan.target_index)) == (3, "cell 4 [2] (id tgt)")
    assert cell_name(0) == "cell 1" and cell_name(2, "ab") == "cell 3 (id ab)"
    assert cell_name(58, "ab", 17) == "cell 59 [17] (id ab)"


def test_fixed_target_matches_by_id_then_by_code_position(tmp_path, write_case):
    write_case(tmp_path, "numpy_3", [("x = 1", 1), ("x.y", 2)],
               [("x = 1", 1), ("import os", 2), ("x.real", 3)], error_at=1)
    (case,) = load_cases(tmp_path)
    # ids differ (c001 vs c002 for the same position): the code-cell position decides
    plan = replay_plan(case, "fixed")
    assert plan.target_index == 1 and plan.target_source == "import os"


def test_reproduced_without_error_output_is_a_case_error(tmp_path, write_case):
    write_case(tmp_path, "torch_1", [("a = 1", 1)], error_at=None)
    (case,) = load_cases(tmp_path)
    with pytest.raises(CaseError, match="no target cell"):
        replay_plan(case, "reproduced")


def test_not_a_folder_and_empty_folder_are_errors(tmp_path):
    with pytest.raises(CaseError, match="not a folder"):
        load_cases(tmp_path / "nope")
    with pytest.raises(CaseError, match="no case folders"):
        load_cases(tmp_path)


def test_labels_from_csv_with_junobench_columns(tmp_path, write_case):
    write_case(tmp_path, "sklearn_4", [("a", 1)], error_at=0)
    with (tmp_path / "benchmark_desc.csv").open("w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["nb_name", "ename", "evalue", "label_root_cause", "label_refined_exp_type", "label_ML_pipeline"])
        w.writerow(["sklearn_4", "valueerror", "bad", "API misuse", "invalid argument", "training"])
    (case,) = load_cases(tmp_path)
    assert case.labels.crash_type == "invalid argument"
    assert case.labels.root_cause == "API misuse"
    assert case.labels.pipeline_stage == "training"
    assert case.labels.library_group == "sklearn"


def _write_xlsx(path, rows):
    """A minimal but valid .xlsx (shared strings, one sheet), as Excel writes it."""
    strings = sorted({v for row in rows for v in row})
    index = {s: i for i, s in enumerate(strings)}
    ns = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'
    sheet_rows = "".join(
        f'<row r="{r + 1}">' + "".join(
            f'<c r="{chr(65 + c)}{r + 1}" t="s"><v>{index[v]}</v></c>' for c, v in enumerate(row)
        ) + "</row>"
        for r, row in enumerate(rows)
    )
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("xl/workbook.xml", f'<workbook {ns} xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>')
        zf.writestr("xl/_rels/workbook.xml.rels", '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="worksheet" Target="worksheets/sheet1.xml"/></Relationships>')
        zf.writestr("xl/sharedStrings.xml", f"<sst {ns}>" + "".join(f"<si><t>{s}</t></si>" for s in strings) + "</sst>")
        zf.writestr("xl/worksheets/sheet1.xml", f"<worksheet {ns}><sheetData>{sheet_rows}</sheetData></worksheet>")


def test_labels_from_benchmark_desc_xlsx(tmp_path, write_case):
    write_case(tmp_path, "torch_2", [("a", 1)], error_at=0)
    _write_xlsx(tmp_path / "benchmark_desc.xlsx", [
        ["nb_name", "ename", "label_refined_exp_type", "label_ML_pipeline"],
        ["torch_2", "runtimeerror", "tensor shape mismatch", "training"],
    ])
    assert read_xlsx_rows(tmp_path / "benchmark_desc.xlsx")[0]["ename"] == "runtimeerror"
    (case,) = load_cases(tmp_path)
    assert case.labels.ename == "runtimeerror"
    assert case.labels.crash_type == "tensor shape mismatch"


def test_junk_xlsx_and_case_json_are_named_errors(tmp_path, write_case):
    folder = write_case(tmp_path, "numpy_9", [("a", 1)], error_at=0)
    (folder / "case.json").write_text("{not json")
    with pytest.raises(CaseError, match="case.json"):
        load_cases(tmp_path)
    (folder / "case.json").write_text(json.dumps({"ename": "x"}))
    (tmp_path / "benchmark_desc.xlsx").write_bytes(b"junk")
    with pytest.raises(CaseError, match="benchmark_desc.xlsx"):
        load_cases(tmp_path)


def test_sample_cases_have_targets_with_the_labelled_ids(sample_root):
    cases = load_cases(sample_root)
    folders = [p for p in sample_root.iterdir() if (p / "case.json").is_file()]
    assert len(cases) == len(folders) >= 9  # the shipped copy: 9 (torch_9 left out)
    for case in cases:
        for version in case.versions:
            plan = replay_plan(case, version)
            assert plan.target_id == case.labels.target_cell_id, (case.name, version)
            assert plan.prefix, case.name


def test_a_fixed_notebook_without_the_target_names_the_file_and_cell(tmp_path, write_case):
    write_case(tmp_path, "numpy_4", [("x = 1", 1), ("y = 2", 2), ("x.y", 3)], [("x = 1", 1)], error_at=2)
    (case,) = load_cases(tmp_path)
    with pytest.raises(CaseError) as info:
        replay_plan(case, "fixed")
    assert str(info.value) == (f"{case.fixed}: no cell matches the reproduced target cell 3 (id c002) "
                               "(neither its id nor a code cell number 3)")
