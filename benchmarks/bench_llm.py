"""crashpredict.llm: the overhead of the shared chat client and of prompt assembly.

The model's own latency is not ours to measure, so everything runs against the
chat-completions server the tests use (127.0.0.1, in this process, instant answers):

- ``ChatClient.complete`` (redaction, cache-key hashing, retry loop, reply parsing) against
  the peer, a bare ``openai.OpenAI().chat.completions.create`` call to the same server;
- a cache hit against the same uncached call;
- prompt assembly (comment stripping, redaction, snapshot filtering + rendering) for a
  40-cell notebook, against ``rtextract.render`` alone on the same snapshot.
"""

from __future__ import annotations

import importlib.util
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CALLS = 150
PROMPTS = 200


def _server_module():
    name = "crashpredict_tests_llm_server"
    if name not in sys.modules:
        path = ROOT / "packages" / "crashpredict" / "tests" / "llm_server.py"
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


def _time(fn, n: int) -> list[float]:
    times = []
    for i in range(n):
        t0 = time.perf_counter()
        fn(i)
        times.append(time.perf_counter() - t0)
    return times


def _stats(times: list[float]) -> tuple[float, float]:
    ordered = sorted(times)
    return statistics.median(ordered) * 1000, ordered[int(0.95 * (len(ordered) - 1))] * 1000


def _notebook() -> tuple[list[str], str, dict]:
    import numpy as np
    import pandas as pd

    cells = [f"# step {i}\nx{i} = df['c{i % 5}'].fillna(0)  # clean\ny{i} = x{i} * {i}\n"
             for i in range(40)]
    target = "model.fit(df[['c0', 'c1', 'c9']], target)\n"
    df = pd.DataFrame(np.arange(5000.0).reshape(1000, 5), columns=[f"c{i}" for i in range(5)])
    return cells, target, {"df": df, "target": np.zeros(1000), "model": object()}


def main() -> str:
    import openai
    import rtextract

    from crashpredict.llm import ChatClient, LLMSettings, build_messages, runtime_block
    from crashpredict.llm._redact import Redactor

    fake = _server_module()
    server = fake.FakeChatServer().start()
    server.fallback = fake.chat('{"detection": false}')
    messages = ({"role": "system", "content": "You predict crashes."},
                {"role": "user", "content": "x = 1\n" * 200})
    try:
        settings = LLMSettings(model="m", base_url=server.url, cache_dir=None)
        ours = ChatClient(settings, env={})
        bare = openai.OpenAI(base_url=server.url, api_key="k", max_retries=0)
        bare_call = lambda i: bare.chat.completions.create(  # noqa: E731
            model="m", messages=list(messages), temperature=0.0,
            response_format={"type": "json_object"})
        ours_call = lambda i: ours.complete(messages, sample=i)  # noqa: E731
        bare_call(0), ours_call(0)  # warm the connection pools
        peer, client = [], []
        for _ in range(3):  # interleave so drift hits both sides alike
            peer += _time(bare_call, CALLS // 3)
            client += _time(ours_call, CALLS // 3)
        with tempfile.TemporaryDirectory() as cache:
            cached = ChatClient(settings.replace(cache_dir=Path(cache)), env={})
            for i in range(CALLS):
                cached.complete(messages, sample=i)
            hits = _time(lambda i: cached.complete(messages, sample=i), CALLS)
    finally:
        server.stop()

    cells, target, namespace = _notebook()
    snap = rtextract.snapshot(namespace, target).to_json()
    snap_obj = rtextract.Snapshot.from_json(snap)
    prompt_settings = LLMSettings(cache_dir=None)

    def assemble(_: int) -> None:
        redactor = Redactor.from_env().learn([target, *cells])
        block = runtime_block(snap, prompt_settings, redactor)
        for m in build_messages(target, cells, runtime=block):
            redactor.redact(m["content"])

    render_only = _time(lambda i: rtextract.render(snap_obj, budget=4000), PROMPTS)
    prompts = _time(assemble, PROMPTS)

    rows = [
        ("bare openai SDK call (peer)", peer, None),
        ("ChatClient.complete, uncached", client, peer),
        ("ChatClient.complete, cache hit", hits, peer),
        ("rtextract.render alone (peer)", render_only, None),
        ("prompt assembly, 40 cells + facts + redaction", prompts, render_only),
    ]
    lines = ["## crashpredict.llm", "",
             f"Against an in-process chat-completions server on 127.0.0.1 ({CALLS} calls each; "
             f"{PROMPTS} prompt assemblies).", "",
             "| operation | median ms | p95 ms | median vs peer |", "|---|---:|---:|---:|"]
    for name, times, against in rows:
        med, p95 = _stats(times)
        ratio = f"{med / _stats(against)[0]:.2f}x" if against else "1.00x"
        lines.append(f"| {name} | {med:.2f} | {p95:.2f} | {ratio} |")
    section = "\n".join(lines) + "\n"
    print(section)
    return section


if __name__ == "__main__":
    main()
