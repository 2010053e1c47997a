"""Experiment (issue #12, tried and dropped): the model writes one Python expression over the tools, which is then
evaluated, instead of calling them turn by turn.

Qwen2.5-Coder is trained on code, so "(lookup('prices', 'printer') * 2 - 18) / 5" might come easier to it than a
chain of JSON turns. Each task of a bench task file gets one greedy completion, unconstrained: the offered tools
other than the calculator as Python signatures with their docstrings' first paragraph, the task, and a request
for one expression. The last line of the reply (or of its code block) is evaluated with only those tools as
names (no attributes, subscripts or other calls), each tool's numeric result as a float, and scored like the
harness scores a number.

    .venv/bin/python -m bench.code_plan three.jsonl

where three.jsonl is the 36 three-step dev tasks (`cat bench/tasks/dev/independent*.jsonl | grep '"class":
"three_steps"' > three.jsonl`). Forty-seventh stop: 1/36, against 24/36 for the agent loop on the same tasks.
"""

from __future__ import annotations

import argparse
import ast
import inspect
import json
import re
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from bench.checks import passes
from bench.toolbox import FUNCTIONS

_FENCED = re.compile(r"```(?:python)?\s*(.*?)```", re.DOTALL)
_REQUEST = (
    "Write one Python expression that computes the answer to the task, calling the functions above for any value "
    "the task does not give, and arithmetic for the rest. Reply with the expression only."
)


def signature(name: str) -> str:
    """A toolbox function as the model sees it: `def name(params):` and its docstring's first paragraph."""
    function = FUNCTIONS[name]
    doc = (inspect.getdoc(function) or "").split("\n\n")[0].replace("\n", " ")
    params = ", ".join(inspect.signature(function).parameters)
    return f'def {name}({params}):\n    """{doc}"""'


def expression_of(reply: str) -> str:
    """The reply's last line, inside its code block if it has one."""
    fenced = _FENCED.search(reply)
    text = (fenced.group(1) if fenced else reply).strip()
    return text.splitlines()[-1] if text else ""


def evaluate(expression: str, tools: dict[str, Callable[..., str]]) -> Any:
    """`expression` with only `tools` callable (each result a float where it reads as one); ValueError for any
    other call, attribute, subscript or lambda."""
    tree = ast.parse(expression.strip(), mode="eval")
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and not (isinstance(node.func, ast.Name) and node.func.id in tools):
            raise ValueError("a call to something other than the offered tools")
        if isinstance(node, ast.Attribute | ast.Subscript | ast.Lambda | ast.NamedExpr):
            raise ValueError(f"{type(node).__name__} is not allowed")
    names = {name: _numeric(function) for name, function in tools.items()}
    # every call and name was checked above: only the offered tools can run, and no builtins are in reach
    return eval(compile(tree, "<plan>", "eval"), {"__builtins__": {}}, names)


def _numeric(function: Callable[..., str]) -> Callable[..., Any]:
    def call(*args: Any, **kwargs: Any) -> Any:
        result = function(*args, **kwargs)
        try:
            return float(result)
        except ValueError:
            return result

    return call


def run(tasks: Sequence[dict[str, Any]], complete: Callable[[str], str]) -> int:
    solved = 0
    for task in tasks:
        names = [name for name in task["tools"] if name != "calculator"]
        prompt = "Functions:\n" + "\n".join(signature(n) for n in names) + f"\n\nTask: {task['task']}\n\n{_REQUEST}"
        started = time.perf_counter()
        expression = expression_of(complete(prompt))
        try:
            value: Any = evaluate(expression, {name: FUNCTIONS[name] for name in names})
        except Exception as exc:  # a reply that is no expression is a wrong answer, not a crash
            value = f"error: {exc}"
        ok = passes(task["check"], str(value))  # the harness's own check, on the value as text
        solved += ok
        seconds = time.perf_counter() - started
        print(f"{task['id']} {'ok' if ok else '--'} {seconds:.1f}s {expression[:120]!r} -> {str(value)[:40]}")
    print(f"solved {solved}/{len(tasks)}")
    return solved


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("tasks", type=Path, help="a bench task file (JSON lines)")
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args(argv)
    from llama_cpp import Llama

    from agentcore.models.registry import resolve_model

    path = resolve_model("qwen2.5-coder-0.5b").path
    llm = Llama(model_path=str(path), n_ctx=4096, n_threads=args.threads, verbose=False)

    def complete(prompt: str) -> str:
        messages = [{"role": "system", "content": "You are a helpful assistant."}, {"role": "user", "content": prompt}]
        reply = llm.create_chat_completion(messages, temperature=0, top_k=1, max_tokens=160)  # type: ignore[arg-type]
        return str(reply["choices"][0]["message"]["content"] or "")  # type: ignore[index]

    tasks = [json.loads(line) for line in args.tasks.read_text(encoding="utf-8").splitlines() if line.strip()]
    run(tasks, complete)
    return 0


if __name__ == "__main__":
    sys.exit(main())
