"""The load benchmark's processes: starting, sampling and stopping them, and its PostgreSQL.

Shared by the product's run (``__main__``) and the floor's (``floor``).
"""

from __future__ import annotations

import contextlib
import math
import os
import resource
import select
import signal
import socket
import subprocess
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.loadbench.core import parse_proc_status

ROOT = Path(__file__).resolve().parent.parent.parent
PY = sys.executable
PG = {"host": "127.0.0.1", "port": 5432, "user": "postgres"}
CLK_TCK = os.sysconf("SC_CLK_TCK")


def log(text: str) -> None:
    print(text, flush=True)


@dataclass
class Proc:
    label: str
    popen: subprocess.Popen[Any]
    server: bool = True


@dataclass
class Registry:
    """Every process this run started, so that each one is stopped on exit or Ctrl-C."""

    procs: list[Proc] = field(default_factory=list)

    def start(
        self,
        label: str,
        argv: list[str],
        env: dict[str, str],
        logdir: Path,
        server: bool = True,
        pipes: bool = False,
    ) -> Proc:
        out = open(logdir / f"{label.replace(' ', '_').replace(':', '_')}.log", "wb")  # noqa: SIM115
        popen = subprocess.Popen(
            argv,
            cwd=ROOT,
            env=env,
            stdin=subprocess.PIPE if pipes else subprocess.DEVNULL,
            stdout=subprocess.PIPE if pipes else out,
            stderr=out,
            start_new_session=True,  # its own process group: stopped with its children
        )
        proc = Proc(label, popen, server)
        self.procs.append(proc)
        return proc

    def stop_all(self) -> None:
        for proc in self.procs:
            if proc.popen.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.popen.pid, signal.SIGTERM)
        deadline = time.time() + 10
        for proc in self.procs:
            try:
                proc.popen.wait(timeout=max(0.1, deadline - time.time()))
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.popen.pid, signal.SIGKILL)
                proc.popen.wait()
        self.procs.clear()


def run(argv: list[str], env: dict[str, str], what: str, timeout: float = 1800) -> None:
    result = subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout)
    if result.returncode != 0:
        raise RuntimeError(f"{what} failed:\n{result.stdout[-2000:]}\n{result.stderr[-4000:]}")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_port(port: int, proc: Proc, timeout: float = 60) -> None:
    deadline = time.time() + timeout
    while time.time() < deadline:
        if proc.popen.poll() is not None:
            raise RuntimeError(f"{proc.label} exited with {proc.popen.returncode} (see its log)")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"{proc.label} did not open port {port} within {timeout:.0f} s")


def wait_children(proc: Proc, count: int, timeout: float = 90) -> None:
    """Wait until a Celery worker has forked its pool (then give it a moment to consume)."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        if proc.popen.poll() is not None:
            raise RuntimeError(f"{proc.label} exited with {proc.popen.returncode} (see its log)")
        if len(children_of(proc.popen.pid)) >= count:
            time.sleep(1.0)
            return
        time.sleep(0.3)
    raise RuntimeError(f"{proc.label} did not start its {count} pool processes within {timeout:.0f} s")


def children_of(pid: int) -> list[int]:
    out: list[int] = []
    try:
        for tid in os.listdir(f"/proc/{pid}/task"):
            text = Path(f"/proc/{pid}/task/{tid}/children").read_text()
            out.extend(int(c) for c in text.split())
    except (FileNotFoundError, ProcessLookupError, PermissionError):
        return out
    return out


def proc_tree(pid: int) -> list[int]:
    todo, seen = [pid], []
    while todo:
        p = todo.pop()
        seen.append(p)
        todo.extend(children_of(p))
    return seen


def read_status(pid: int) -> dict[str, int]:
    try:
        return parse_proc_status(Path(f"/proc/{pid}/status").read_text())
    except (FileNotFoundError, ProcessLookupError):
        return {}


def cpu_ticks(pid: int) -> int:
    return cpu_ticks_of(Path(f"/proc/{pid}/stat"))


def loop_ticks(pid: int) -> int:
    """The CPU ticks of a process's main thread: a Daphne's event loop (its other threads: the
    database threads that run the ORM, the lease's)."""
    return cpu_ticks_of(Path(f"/proc/{pid}/task/{pid}/stat"))


def loops_ticks(servers: list[Proc]) -> int:
    """The CPU ticks of the main threads (event loops) of ``servers`` (not their children)."""
    return sum(loop_ticks(proc.popen.pid) for proc in servers)


def cpu_ticks_of(stat: Path) -> int:
    try:
        fields = stat.read_text().rsplit(")", 1)[1].split()
    except (FileNotFoundError, ProcessLookupError):
        return 0
    return int(fields[11]) + int(fields[12])  # utime + stime


def machine_ticks() -> tuple[int, int]:
    parts = [int(x) for x in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    idle = parts[3] + parts[4]
    return sum(parts) - idle, sum(parts)


class Sampler(threading.Thread):
    """Samples VmRSS/VmHWM of every server process and its children twice a second."""

    def __init__(self, servers: list[Proc]) -> None:
        super().__init__(daemon=True)
        self.servers = servers
        self.peak_kb: dict[tuple[str, int], int] = {}
        self.stop_event = threading.Event()

    def sample(self) -> None:
        for proc in self.servers:
            for n, pid in enumerate(proc_tree(proc.popen.pid)):
                label = proc.label if n == 0 else f"{proc.label} child"
                st = read_status(pid)
                if st:
                    key = (label, pid)
                    self.peak_kb[key] = max(self.peak_kb.get(key, 0), st.get("VmRSS", 0), st.get("VmHWM", 0))

    def run(self) -> None:
        while not self.stop_event.is_set():
            self.sample()
            self.stop_event.wait(0.5)

    def cpu(self) -> dict[str, int]:
        out: Counter[str] = Counter()
        for proc in self.servers:
            for pid in proc_tree(proc.popen.pid):
                out[proc.label] += cpu_ticks(pid)
        return dict(out)


def pg(dbname: str = "postgres") -> Any:
    import psycopg

    return psycopg.connect(dbname=dbname, autocommit=True, **PG)


def fd_limit(needed: int) -> str | None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < needed:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (min(max(needed, soft), hard), hard))
        except (ValueError, OSError) as exc:
            return f"cannot raise RLIMIT_NOFILE to {needed}: {exc}"
        soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    if soft < needed:
        return f"RLIMIT_NOFILE is {soft} (hard {hard}), {needed} needed"
    return None


def read_line(proc: Proc, prefix: str, timeout: float) -> str:
    assert proc.popen.stdout is not None
    deadline = time.time() + timeout
    fd = proc.popen.stdout
    while time.time() < deadline:
        ready, _, _ = select.select([fd], [], [], max(0.0, deadline - time.time()))
        if not ready:
            break
        line = fd.readline().decode(errors="replace")
        if not line:
            raise RuntimeError(f"{proc.label} exited with {proc.popen.poll()} (see its log)")
        if line.startswith(prefix):
            return line[len(prefix) :].strip()
    raise RuntimeError(f"{proc.label}: no '{prefix.strip()}' line within {timeout:.0f} s")


def daphne_argv(port: int, application: str, before: list[str] | None = None) -> list[str]:
    """The command line of a Daphne process serving ``application`` on 127.0.0.1:``port``."""
    return [PY, *(before or []), "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), application]


def start_clients(
    reg: Registry,
    spec_file: Path,
    ports: list[int],
    total: int,
    client_procs: int,
    think_ms: float,
    env: dict[str, str],
    logdir: Path,
) -> list[Proc]:
    """Start the bot client processes, each with its slice of the ``total`` clients of the spec file."""
    per = math.ceil(total / client_procs)
    return [
        reg.start(
            f"client {i + 1}",
            [
                PY,
                "-m",
                "bench.loadbench.client",
                "--spec",
                str(spec_file),
                "--ports",
                ",".join(map(str, ports)),
                "--indices",
                f"{i * per}:{min(total, (i + 1) * per)}",
                "--seed",
                str(i + 1),
                "--think-ms",
                str(think_ms),
            ],
            env,
            logdir,
            server=False,
            pipes=True,
        )
        for i in range(client_procs)
        if i * per < total
    ]


def pg_ticks() -> dict[int, int]:
    """CPU ticks of every PostgreSQL process of the machine, by pid (the server's share)."""
    ticks = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                comm = Path(f"/proc/{entry}/comm").read_text().strip()
            except OSError:
                continue
            if comm == "postgres":
                ticks[int(entry)] = cpu_ticks(int(entry))
    return ticks


def pg_spent(before: dict[int, int], after: dict[int, int]) -> int:
    """PostgreSQL's CPU ticks between two ``pg_ticks``: the processes alive at the second (one
    started meanwhile counts whole; one that ended meanwhile is not counted)."""
    return sum(max(0, t - before.get(pid, 0)) for pid, t in after.items())
