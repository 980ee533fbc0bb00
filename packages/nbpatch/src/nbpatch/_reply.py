"""``read_reply``: turn what an LLM or a tool returned into a patch of the base notebook.

Understood forms: a whole notebook as JSON, a percent-format script (``# %%`` headers, as
jupytext writes it), MLEModernizer-style ``## === cell N`` blocks (N counts code cells), and
one fenced code block (or bare code) for one named cell. Applying the patch keeps the
original's markdown cells (unless the reply carries its own), the cell ids of every cell that
still exists, and the comments an LLM tends to drop from the code it rewrites.
"""

from __future__ import annotations

import copy
import io
import json
import re
import tokenize
from collections.abc import Mapping, Sequence
from difflib import SequenceMatcher
from typing import Any

from nbformat import NotebookNode

from ._align import align
from ._diff import diff_cells
from ._model import InsertCell, MoveCell, Op, Patch
from ._notebook import NotebookLike, as_notebook, cell_hash, cell_keys, source_of
from .errors import NotebookError, ReplyError

__all__ = ["read_reply", "keep_comments"]

_FENCE_OPEN = re.compile(r"^[ \t]*(`{3,}|~{3,})[ \t]*([\w.+-]*)[^\n]*$")
_NUMBERED = re.compile(r"^[ \t]*#+[ \t]*={2,}[ \t]*cell\b[ \t]*([^\s=]*)[^\n]*$", re.I)
_PERCENT = re.compile(r"^[ \t]*#[ \t]?%%(?!%)(.*)$")
_CODE_LANGS = {"", "python", "py", "python3", "ipython", "ipython3", "jupyter"}


def _fences(text: str) -> list[tuple[str, str]]:
    """``(language, body)`` of each fenced block; an unclosed fence runs to the end."""
    blocks: list[tuple[str, str]] = []
    lines = text.splitlines()
    k = 0
    while k < len(lines):
        opened = _FENCE_OPEN.match(lines[k])
        if not opened:
            k += 1
            continue
        fence, lang = opened.group(1), opened.group(2).lower()
        end = k + 1
        while end < len(lines) and not lines[end].strip().startswith(fence):
            end += 1
        blocks.append((lang, "\n".join(lines[k + 1:end])))
        k = end + 1
    return blocks


def _is_comment(line: str) -> bool:
    return line.lstrip().startswith("#")


def _split_inline(line: str) -> tuple[str, str] | None:
    """``(code, comment)`` when the line has code followed by a comment."""
    try:
        for tok in tokenize.generate_tokens(io.StringIO(line + "\n").readline):
            if tok.type == tokenize.COMMENT:
                code = line[: tok.start[1]].rstrip()
                return (code, tok.string) if code.strip() else None
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return None
    return None


def keep_comments(old: str, new: str) -> str:
    """``new`` with the comments of ``old`` that ``new`` dropped put back near their code.

    A comment line ``new`` no longer has (anywhere) returns before the code line that
    followed it; an inline comment returns to a line whose code is unchanged.

    Example:
        >>> keep_comments("# load\\ndf = f(1)\\n", "df = f(2)\\n")
        '# load\\ndf = f(2)\\n'
    """
    a, b = old.splitlines(), new.splitlines()
    present = {line.strip() for line in b}
    out: list[str] = []
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag == "equal":
            out.extend(a[i1:i2])
            continue
        inserted = list(b[j1:j2])
        inline = {}
        slots: list[list[str]] = [[] for _ in range(len(inserted) + 1)]
        code_seen = 0
        for line in a[i1:i2]:
            if _is_comment(line):
                if line.strip() not in present:
                    slots[min(code_seen, len(inserted))].append(line)
            else:
                code_seen += line.strip() != ""
                split = _split_inline(line)
                if split and split[1].strip() not in present:
                    inline[split[0].strip()] = split[1]
        for k, line in enumerate(inserted):
            out.extend(slots[k])
            comment = inline.get(line.strip())
            out.append(f"{line.rstrip()}  {comment}" if comment and "#" not in line else line)
        out.extend(slots[len(inserted)])
    text = "\n".join(out)
    return text + "\n" if new.endswith("\n") and out else text


def _new_source(old: Mapping[str, Any], code: str, keep: bool) -> str:
    if keep and old.get("cell_type") == "code":
        return keep_comments(source_of(old), code)
    return code


def _tidy(code: str) -> str:
    return code.strip("\n").rstrip()


def _resolve_cell(base: NotebookNode, cell: str | int) -> int:
    keys = cell_keys(base.cells)
    if isinstance(cell, int) and not isinstance(cell, bool):
        if -len(base.cells) <= cell < len(base.cells):
            return cell % len(base.cells)
        raise ReplyError(f"cell {cell}: the notebook has {len(base.cells)} cells")
    text = str(cell)
    for index, c in enumerate(base.cells):
        if c.get("id") == text or keys[index] == text or f"#{index}" == text:
            return index
    raise ReplyError(f"cell {text!r}: no such cell id in the notebook")


def _patch_with(base: NotebookNode, new_cells: list[Any],
                pairs: Sequence[tuple[int, int]] | None = None) -> Patch:
    b, ops = diff_cells(base.cells, cell_keys(base.cells), new_cells, pairs=pairs)
    return Patch(base=b, ops=tuple(ops))


def _one_cell(base: NotebookNode, index: int, code: str, keep: bool) -> Patch:
    lines = code.splitlines()
    if lines and (_PERCENT.match(lines[0]) or _NUMBERED.match(lines[0])):
        code = "\n".join(lines[1:])
    code = _tidy(code)
    if not code.strip():
        raise ReplyError("reply contains no code")
    new_cells = copy.deepcopy(list(base.cells))
    new_cells[index]["source"] = _new_source(base.cells[index], code, keep)
    return _patch_with(base, new_cells, [(i, i) for i in range(len(base.cells))])


def _whole(base: NotebookNode, reply_cells: list[Any], keep: bool) -> Patch:
    pairs = align(base.cells, reply_cells)
    new_cells = copy.deepcopy(reply_cells)
    for i, j in pairs:
        new_cells[j]["source"] = _new_source(base.cells[i], source_of(new_cells[j]), keep)
    return _patch_with(base, new_cells, pairs)


def _code_only(base: NotebookNode, reply_cells: list[Any], keep: bool) -> Patch:
    """A reply of code cells only: align with the base's code cells, keep everything else."""
    keys = cell_keys(base.cells)
    code_index = [k for k, c in enumerate(base.cells) if c.get("cell_type") == "code"]
    code_cells = [base.cells[k] for k in code_index]
    pairs = align(code_cells, reply_cells)
    new_cells = copy.deepcopy(reply_cells)
    for i, j in pairs:
        new_cells[j]["source"] = _new_source(code_cells[i], source_of(new_cells[j]), keep)
    hashes, ops = diff_cells(code_cells, [keys[k] for k in code_index], new_cells, pairs=pairs)
    first = code_index[0] if code_index else len(base.cells)
    if first:  # "at the start" of the code means after whatever precedes the first code cell
        anchor = keys[first - 1]
        fixed: list[Op] = []
        for op in ops:
            if isinstance(op, (InsertCell, MoveCell)) and op.after is None:
                hashes[anchor] = cell_hash(base.cells[first - 1])
                op = (InsertCell(cell=op.cell, after=anchor, content=op.content)
                      if isinstance(op, InsertCell) else MoveCell(cell=op.cell, after=anchor))
            fixed.append(op)
        ops = fixed
    return Patch(base=hashes, ops=tuple(ops))


def _percent_cells(body: str) -> list[dict[str, Any]]:
    cells: list[dict[str, Any]] = []
    kind, lines, started = "code", [], False

    def close() -> None:
        text = "\n".join(lines)
        if kind == "markdown":
            text = "\n".join(re.sub(r"^# ?", "", line) for line in text.splitlines())
        preamble = not cells and not started
        if preamble and all(_is_comment(x) or not x.strip() for x in text.splitlines()):
            return  # a jupytext YAML header or a title comment, not a cell
        if not preamble or _tidy(text):
            cells.append({"cell_type": kind, "source": _tidy(text), "metadata": {}})

    for line in body.splitlines():
        header = _PERCENT.match(line)
        if header is None:
            lines.append(line)
            continue
        close()
        started = True
        tag = header.group(1)
        kind = "markdown" if "[markdown]" in tag or "[md]" in tag else (
            "raw" if "[raw]" in tag else "code")
        lines = []
    close()
    for cell in cells:
        if cell["cell_type"] == "code":
            cell.update(outputs=[], execution_count=None)
    return cells


def _numbered(base: NotebookNode, body: str, keep: bool) -> Patch:
    code_index = [k for k, c in enumerate(base.cells) if c.get("cell_type") == "code"]
    blocks: list[tuple[int, int, list[str]]] = []  # (header line, number, lines)
    preamble: list[str] = []
    for lineno, line in enumerate(body.splitlines(), start=1):
        header = _NUMBERED.match(line)
        if header is None:
            (blocks[-1][2] if blocks else preamble).append(line)
            continue
        if not header.group(1).isdigit():
            raise ReplyError(f"reply line {lineno}: cell header {line.strip()!r} has no number")
        blocks.append((lineno, int(header.group(1)), []))
    if any(line.strip() and not _is_comment(line) for line in preamble):
        raise ReplyError(f"reply line {blocks[0][0]}: code before the first '## === cell' header")
    offset = 0 if any(number == 0 for _, number, _ in blocks) else 1
    new_cells = copy.deepcopy(list(base.cells))
    seen: dict[int, int] = {}
    for lineno, number, lines in blocks:
        slot = number - offset
        if not 0 <= slot < len(code_index):
            raise ReplyError(
                f"reply line {lineno}: cell header numbering does not match the notebook: "
                f"cell {number}, but it has {len(code_index)} code cells "
                f"(numbered {offset}..{len(code_index) - 1 + offset})"
            )
        if slot in seen:
            raise ReplyError(f"reply line {lineno}: cell {number} appears twice "
                             f"(first at line {seen[slot]})")
        seen[slot] = lineno
        target = code_index[slot]
        new_cells[target]["source"] = _new_source(base.cells[target], _tidy("\n".join(lines)),
                                                  keep)
    if not any(_tidy("\n".join(lines)) for _, _, lines in blocks):
        raise ReplyError("reply contains no code")
    return _patch_with(base, new_cells, [(i, i) for i in range(len(base.cells))])


def _body(text: str) -> str:
    blocks = _fences(text)
    if not blocks:
        return text
    if len(blocks) == 1:
        return blocks[0][1]
    json_blocks = [body for lang, body in blocks if body.lstrip().startswith("{")]
    if len(json_blocks) == 1:
        return json_blocks[0]
    return "\n".join(body for lang, body in blocks if lang in _CODE_LANGS)


def _notebook_reply(base: NotebookNode, body: str, keep: bool) -> Patch:
    try:
        data = json.loads(body)
    except RecursionError:
        raise ReplyError("reply looks like JSON but nests too deeply to read") from None
    except ValueError as exc:
        raise ReplyError(f"reply looks like JSON but does not parse ({exc})") from None
    try:
        reply = as_notebook(data, name="reply")
    except NotebookError as exc:
        raise ReplyError(str(exc)) from None
    if not any(c.cell_type == "code" and c.source.strip() for c in reply.cells):
        raise ReplyError("reply contains no code (a notebook without code cells)")
    # Ids in a reply are not to be trusted (LLMs invent or renumber them): cells pair by
    # content and position, and cells that still exist keep the base's ids.
    cells = [{k: v for k, v in c.items() if k != "id"} for c in reply.cells]
    if all(c["cell_type"] == "code" for c in cells):  # code only: the markdown stays
        return _code_only(base, cells, keep)
    return _whole(base, cells, keep)


def read_reply(text: str, base_nb: NotebookLike, *, cell: str | int | None = None,
               keep_comments: bool = True) -> Patch:
    """Parse an LLM or tool reply into a patch of ``base_nb``.

    Args:
        text: the reply: a whole notebook as JSON, a percent-format script (``# %%``),
            ``## === cell N`` blocks (N counts code cells from 1, or from 0 when a block 0
            appears), or one fenced code block (or bare code) for the cell named ``cell``.
            Prose around fenced blocks is ignored.
        base_nb: the notebook the reply was made from.
        cell: the cell a single-block reply replaces: a position in ``base_nb.cells``
            (int), a cell id or a ``#position`` key. Needed for a single block unless the
            notebook has exactly one code cell.
        keep_comments: put back comments the reply dropped from code it kept.

    Returns:
        A ``Patch`` (apply it with ``apply``). Markdown cells are kept unless the reply
        carries markdown itself; cells that still exist keep their ids.

    Raises:
        ReplyError: no code, unparsable JSON, header numbers that do not match the notebook,
            no cell structure and no ``cell``.
        NotebookError: ``base_nb`` is not a notebook.

    Example:
        >>> patch = read_reply("```python\\nx = 2\\n```", nb, cell=1)  # doctest: +SKIP
    """
    base = as_notebook(base_nb, name="base notebook")
    if not text or not text.strip():
        raise ReplyError("reply is empty")
    if cell is not None:
        index = _resolve_cell(base, cell)
        blocks = [b for lang, b in _fences(text) if lang in _CODE_LANGS] or [
            b for _, b in _fences(text)]
        if len(blocks) > 1:
            raise ReplyError(f"reply has {len(blocks)} code blocks; expected one for cell {cell}")
        return _one_cell(base, index, blocks[0] if blocks else text, keep_comments)
    body = _body(text)
    if not body.strip():
        raise ReplyError("reply contains no code")
    if body.lstrip().startswith("{"):
        return _notebook_reply(base, body, keep_comments)
    lines = body.splitlines()
    if any(_NUMBERED.match(line) for line in lines):
        return _numbered(base, body, keep_comments)
    if any(_PERCENT.match(line) for line in lines):
        cells = _percent_cells(body)
        if not any(c["source"].strip() for c in cells if c["cell_type"] == "code"):
            raise ReplyError("reply contains no code")
        if any(c["cell_type"] != "code" for c in cells):
            return _whole(base, cells, keep_comments)
        return _code_only(base, cells, keep_comments)
    code_cells = [k for k, c in enumerate(base.cells) if c.get("cell_type") == "code"]
    if len(code_cells) == 1:
        return _one_cell(base, code_cells[0], body, keep_comments)
    raise ReplyError(
        "reply has no cell structure (no notebook JSON, '# %%' or '## === cell N' headers); "
        "pass cell= to name the cell it replaces"
    )
