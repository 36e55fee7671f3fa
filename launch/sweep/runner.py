"""Run the points of a sweep into a run folder, resumably (launch/sweeps/README.md)."""

import datetime
import fcntl
import json
import os
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import time

import sweepfile


class Interrupted(Exception):
    """SIGINT or SIGTERM (Ctrl-C, scancel, a batch time limit)."""


def utc_now():
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def write_atomic(path, text):
    """Write text to path through a temporary name and rename(), so readers and a resumed run
    never see half a file."""
    tmp = os.path.join(os.path.dirname(path), "." + os.path.basename(path) + ".tmp")
    with open(tmp, "w") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def git_commit(root):
    try:
        r = subprocess.run(["git", "-C", root, "describe", "--always", "--dirty"],
                           capture_output=True, text=True, timeout=20)
        return r.stdout.strip() or "unknown"
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def fmt_duration(s):
    s = int(s)
    if s >= 3600:
        return f"{s // 3600}h{s % 3600 // 60:02d}m"
    if s >= 60:
        return f"{s // 60}m{s % 60:02d}s"
    return f"{s}s"


class Runner:
    def __init__(self, root, sweep, points, args):
        self.root = root
        self.sweep = sweep
        self.points = points
        self.args = args
        self.run_dir = os.path.join(args.out, args.run_id)
        self.points_dir = os.path.join(self.run_dir, "points")
        self.logs_dir = os.path.join(self.run_dir, "logs")
        self.tty = sys.stderr.isatty()
        self.child = None
        self.meta = None

    # --- launching ---------------------------------------------------------------------------
    def launcher(self):
        if self.args.launcher != "auto":
            return self.args.launcher
        return "srun" if os.environ.get("SLURM_JOB_ID") else "vsym-run"

    def command(self, p, json_path):
        """argv and environment of one point."""
        bench = self.args.bench
        argv = [bench] + sweepfile.bench_args(p) + ["--json", json_path]
        env = dict(os.environ)
        env.update(p.get("env", {}))
        env.update(sweepfile.transport_env(p))
        timeout = p.get("timeout", self.args.timeout)
        if self.launcher() == "srun":
            # srun directly: vsym-run takes no node count. --kill-on-bad-exit stops the other
            # ranks when one fails, so a broken point does not wait for its time limit.
            cmd = ["srun", "--mpi=pmix", "-n", str(p["ranks"]), "--kill-on-bad-exit=1"]
            if p.get("nodes"):
                cmd += ["-N", str(p["nodes"])]
            if p.get("ranks_per_node"):
                cmd += ["--ntasks-per-node", str(p["ranks_per_node"])]
            cmd += argv
        else:
            cmd = [os.path.join(self.root, "launch", "vsym-run"), "-n", str(p["ranks"]),
                   "--timeout", str(timeout), "--"] + argv
            if p.get("vm"):
                vm = [os.path.join(self.root, "launch", "vsym-softroce"), "--timeout",
                      str(timeout + 120), "--rw", self.run_dir]
                if p["transport"] == "vnodes":
                    vm += ["--nodes", str(p["vnodes"])]
                cmd = vm + ["--"] + cmd
        return cmd, env, timeout

    def run_point(self, p):
        """Run one point; returns (ok, exit status, seconds, records)."""
        pid = p["id"]
        tmp_json = os.path.join(self.points_dir, f".{pid}.partial.jsonl")
        log_path = os.path.join(self.logs_dir, f"{pid}.log")
        for stale in (tmp_json,):
            if os.path.exists(stale):
                os.unlink(stale)
        cmd, env, timeout = self.command(p, tmp_json)
        start = time.monotonic()
        with open(log_path, "w") as log:
            log.write(f"# {utc_now()} {shlex.join(cmd)}\n")
            extra = {**p.get("env", {}), **sweepfile.transport_env(p)}
            log.write("# env: " + " ".join(f"{k}={v}" for k, v in sorted(extra.items())) + "\n")
            log.flush()
            # A session of its own, so that stopping the point stops every process of it
            # (launcher, ranks, VM) and a terminal's Ctrl-C reaches only us first.
            self.child = subprocess.Popen(cmd, env=env, stdout=log, stderr=subprocess.STDOUT,
                                          stdin=subprocess.DEVNULL, start_new_session=True,
                                          cwd=self.root)
            try:
                rc = self.child.wait(timeout=timeout + 180)
            except subprocess.TimeoutExpired:
                self.stop_child()
                rc = 124
                log.write(f"\n# vsym-sweep: point stopped after {timeout + 180} s\n")
            except Interrupted:
                # Stop the point and drop its partial output: the point stays unrecorded.
                self.stop_child()
                if os.path.exists(tmp_json):
                    os.unlink(tmp_json)
                log.write("\n# vsym-sweep: interrupted; the point runs again on resume\n")
                raise
            finally:
                self.reap_group()
                self.child = None
        seconds = time.monotonic() - start
        records = []
        problem = None
        if rc == 0:
            try:
                with open(tmp_json) as f:
                    for n, line in enumerate(f, 1):
                        if line.strip():
                            records.append(json.loads(line))
            except FileNotFoundError:
                problem = "vsym-bench wrote no JSON file"
            except json.JSONDecodeError as e:
                problem = f"line {n} of the JSON lines does not parse: {e}"
            if not records and not problem:
                problem = "vsym-bench wrote no record"
        if os.path.exists(tmp_json):
            os.unlink(tmp_json)
        if rc != 0 or problem:
            with open(log_path, "a") as log:
                log.write(f"\n# vsym-sweep: point failed: "
                          f"{problem or f'exit status {rc}'}\n")
            return False, rc if rc else 1, seconds, 0
        # Tag each record with the point that made it (readers ignore keys they do not know),
        # then publish the point in one rename: a point file exists only when complete.
        tag = {"point": pid, "run_id": self.args.run_id, "transport": p["transport"],
               "repeat": p.get("repeat_index", 1), "env": p.get("env", {}),
               "vm": bool(p.get("vm")), "nodes": p.get("nodes", 1)}
        if p["transport"] == "vnodes":
            tag["vnodes"] = p["vnodes"]
        text = "".join(json.dumps({**r, "sweep": tag}, separators=(",", ":")) + "\n"
                       for r in records)
        write_atomic(os.path.join(self.points_dir, f"{pid}.jsonl"), text)
        return True, 0, seconds, len(records)

    @staticmethod
    def session_pids(sid):
        """Processes of session sid: the point's launcher and everything it started. Open MPI
        puts each rank in a process group of its own, so a process group is not enough."""
        pids = []
        for name in os.listdir("/proc"):
            if not name.isdigit():
                continue
            try:
                with open(f"/proc/{name}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except (OSError, IndexError):
                continue
            if int(fields[3]) == sid and int(name) != os.getpid():
                pids.append(int(name))
        return pids

    def signal_session(self, sid, sig):
        for pid in self.session_pids(sid):
            try:
                os.kill(pid, sig)
            except (ProcessLookupError, PermissionError):
                pass

    def reap_group(self):
        """Kill what is left of a finished point's session (a rank its launcher did not stop
        after a time limit), so that nothing of it writes into the run folder later."""
        c = self.child
        if c is not None:
            self.signal_session(c.pid, signal.SIGKILL)

    def stop_child(self):
        """Stop a running point: SIGINT to the launcher first (mpirun and srun then stop their
        ranks cleanly), then SIGTERM and SIGKILL to every process of the point's session."""
        c = self.child
        if c is None:
            return
        if c.poll() is None:
            try:
                os.kill(c.pid, signal.SIGINT)
                c.wait(timeout=5)
            except (ProcessLookupError, subprocess.TimeoutExpired):
                pass
        for sig in (signal.SIGTERM, signal.SIGKILL):
            if not self.session_pids(c.pid):
                break
            self.signal_session(c.pid, sig)
            deadline = time.monotonic() + 5
            while self.session_pids(c.pid) and time.monotonic() < deadline:
                time.sleep(0.1)
        try:
            c.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass

    # --- run folder ----------------------------------------------------------------------------
    def recorded(self, p):
        return os.path.exists(os.path.join(self.points_dir, f"{p['id']}.jsonl"))

    def open_run(self):
        os.makedirs(self.points_dir, exist_ok=True)
        os.makedirs(self.logs_dir, exist_ok=True)
        # One sweep process per run folder: a second one would run the same points twice.
        self.lock = open(os.path.join(self.run_dir, ".lock"), "w")
        try:
            fcntl.flock(self.lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            raise SystemExit(f"vsym-sweep: {self.run_dir} is in use by another vsym-sweep")
        meta_path = os.path.join(self.run_dir, "run.json")
        if os.path.exists(meta_path):
            with open(meta_path) as f:
                self.meta = json.load(f)
            if self.meta.get("sweep_sha256") != self.sweep["sha256"]:
                print(f"vsym-sweep: note: {self.sweep['path']} changed since this run started; "
                      "points are matched by their definition, changed points run anew",
                      file=sys.stderr)
        else:
            self.meta = {"schema": 1, "run_id": self.args.run_id, "created": utc_now(),
                         "points": {}}
        host = socket.gethostname()
        self.meta.update({
            "sweep_name": self.sweep["name"], "sweep_file": os.path.abspath(self.sweep["path"]),
            "sweep_sha256": self.sweep["sha256"], "description": self.sweep["description"],
            "host": host, "commit": git_commit(self.root),
            "build": self.args.build, "bench": self.args.bench, "launcher": self.launcher(),
            "slurm_job_id": os.environ.get("SLURM_JOB_ID"),
        })
        self.meta.setdefault("invocations", []).append(
            {"date": utc_now(), "host": host, "command": shlex.join(sys.argv),
             "cwd": os.getcwd(), "commit": self.meta["commit"]})
        write_atomic(os.path.join(self.run_dir, "sweep.toml"), self.sweep["text"])
        # Points of an earlier version of the sweep file that never completed are gone from
        # the sweep: forget them. Recorded ones stay (their files are part of the run).
        current = {p["id"] for p in self.points}
        for pid in list(self.meta["points"]):
            if pid not in current and not os.path.exists(
                    os.path.join(self.points_dir, pid + ".jsonl")):
                del self.meta["points"][pid]
        for p in self.points:
            entry = self.meta["points"].setdefault(p["id"], {})
            entry["definition"] = {k: v for k, v in p.items() if k != "id"}
            entry["command"] = shlex.join(self.command(p, "points/" + p["id"] + ".jsonl")[0])
            if self.recorded(p):
                entry["status"] = "done"
            elif entry.get("status") != "failed":
                entry["status"] = "pending"
        self.save("running")

    def save(self, status):
        pts = self.meta["points"]
        ids = {p["id"] for p in self.points}
        self.meta["status"] = status
        self.meta["updated"] = utc_now()
        self.meta["total"] = len(ids)
        self.meta["done"] = sum(1 for i in ids if pts[i].get("status") == "done")
        self.meta["failed"] = sum(1 for i in ids if pts[i].get("status") == "failed")
        write_atomic(os.path.join(self.run_dir, "run.json"),
                     json.dumps(self.meta, indent=1, sort_keys=True) + "\n")

    # --- the loop ------------------------------------------------------------------------------
    def progress(self, done, total, label, times, remaining):
        if not self.tty:
            return
        eta = "?"
        if times:
            eta = fmt_duration(sum(times) / len(times) * remaining)
        # The counts and times first: a narrow terminal cuts the point's name, not them.
        line = f"[{done}/{total}] {100 * done // max(total, 1)}%  elapsed " \
               f"{fmt_duration(time.monotonic() - self.t0)}  ETA {eta}  running {label}"
        columns = shutil.get_terminal_size((100, 24)).columns
        sys.stderr.write("\r\033[K" + line[:max(40, columns - 1)])
        sys.stderr.flush()

    def say(self, text):
        if self.tty:
            sys.stderr.write("\r\033[K")
        print(text, file=sys.stderr, flush=True)

    def run(self):
        self.open_run()
        total = len(self.points)
        todo = [p for p in self.points if not self.recorded(p)]
        done = total - len(todo)
        if done:
            self.say(f"vsym-sweep: {self.run_dir}: {done} of {total} points already recorded, "
                     f"running {len(todo)}")
        else:
            self.say(f"vsym-sweep: {self.run_dir}: {total} points")
        self.t0 = time.monotonic()
        times = []
        failed = 0

        def on_signal(signum, frame):
            # Once: while the point is being stopped, further signals must not cut that short.
            signal.signal(signal.SIGINT, signal.SIG_IGN)
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
            raise Interrupted(signal.Signals(signum).name)
        old = {s: signal.signal(s, on_signal) for s in (signal.SIGINT, signal.SIGTERM)}
        try:
            for k, p in enumerate(todo):
                self.progress(done, total, p["id"], times, len(todo) - k)
                ok, rc, secs, nrec = self.run_point(p)
                times.append(secs)
                entry = self.meta["points"][p["id"]]
                entry.update({"seconds": round(secs, 3), "exit": rc, "finished": utc_now()})
                if ok:
                    done += 1
                    entry.update(status="done", records=nrec)
                    if not self.tty:
                        self.say(f"vsym-sweep: [{done}/{total}] {p['id']}: {nrec} records, "
                                 f"{secs:.1f} s")
                else:
                    failed += 1
                    entry.update(status="failed")
                    self.say(f"vsym-sweep: point {p['id']} FAILED (exit {rc}); log: "
                             f"{os.path.join(self.logs_dir, p['id'] + '.log')}")
                self.save("running")
        except Interrupted as e:
            self.stop_child()
            self.save("interrupted")
            self.say(f"vsym-sweep: interrupted ({e}): {done} of {total} points recorded in "
                     f"{self.run_dir}\nresume with: {self.resume_command()}")
            return 130
        finally:
            for s, h in old.items():
                signal.signal(s, h)
        status = "complete" if failed == 0 else "incomplete"
        self.save(status)
        self.say(f"vsym-sweep: {done} of {total} points recorded, {failed} failed, "
                 f"{fmt_duration(time.monotonic() - self.t0)}: {self.run_dir}")
        if failed:
            self.say(f"vsym-sweep: run again to retry the failed points: {self.resume_command()}")
        return 1 if failed else 0

    def resume_command(self):
        argv = [a for a in sys.argv]
        if "--run-id" not in argv:
            argv += ["--run-id", self.args.run_id]
        return shlex.join(argv)

    def dry_run(self):
        for p in self.points:
            state = "recorded" if self.recorded(p) else "to run"
            cmd, _, _ = self.command(p, os.path.join(self.points_dir, p["id"] + ".jsonl"))
            env = {**p.get("env", {}), **sweepfile.transport_env(p)}
            envs = " ".join(f"{k}={shlex.quote(v)}" for k, v in sorted(env.items()))
            print(f"{p['id']} ({state}): {envs} {shlex.join(cmd)}")
        return 0
