"""Every manifest in cluster/ parses, and every entrypoint names a module and configs that exist
and that the module's own parser accepts."""

import importlib
import shlex
from pathlib import Path

import pytest
import yaml

from jobs.entry import parser_for
from tests.conftest import ROOT

CLUSTER = ROOT / "cluster"
MANIFESTS = sorted(CLUSTER.rglob("*.yaml"))


def documents(path: Path) -> list[dict]:
    return [d for d in yaml.safe_load_all(path.read_text()) if d]


def rayjobs() -> list[tuple[str, dict]]:
    """Every RayJob: standalone ones, and the templates the CronJobs create from."""
    found = []
    for path in MANIFESTS:
        for doc in documents(path):
            if doc.get("kind") == "RayJob":
                found.append((f"{path.name}", doc))
            if doc.get("kind") == "ConfigMap":
                for key, text in doc["data"].items():
                    found += [
                        (f"{path.name}:{key}", d)
                        for d in yaml.safe_load_all(text)
                        if d and d["kind"] == "RayJob"
                    ]
    return found


def entrypoint(job: dict) -> tuple[str, list[str]]:
    words = shlex.split(job["spec"]["entrypoint"])
    assert words[:2] == ["python", "-m"], words
    return words[2], words[3:]


def test_every_manifest_parses():
    assert {p.name for p in MANIFESTS} >= {
        "ray-cluster.yaml",
        "raycluster.yaml",
        "rayjob-fit.yaml",
        "rayjob-generate.yaml",
        "rayjob-evaluate.yaml",
        "cronjobs.yaml",
    }
    for path in MANIFESTS:
        assert documents(path), path


def test_rayjobs_cover_the_three_jobs_and_the_schedules():
    modules = {entrypoint(job)[0] for _, job in rayjobs()}
    assert {
        "jobs.fit",
        "jobs.generate",
        "jobs.evaluate",
        "jobs.refresh",
        "jobs.deidentify",
    } <= modules


@pytest.mark.parametrize("where,job", rayjobs(), ids=[w for w, _ in rayjobs()])
def test_entrypoint_module_configs_and_flags_exist(where, job):
    module_name, argv = entrypoint(job)
    assert (ROOT / (module_name.replace(".", "/") + ".py")).is_file(), module_name
    for value in argv:
        if value.startswith("configs/"):
            assert (ROOT / value).is_file(), f"{where}: {value} does not exist"
    module = importlib.import_module(module_name)
    try:
        parser_for(module, module_name).parse_args(argv)
    except SystemExit:
        pytest.fail(f"{where}: {module_name} rejects its arguments {argv}")
    assert job["spec"]["clusterSelector"] == {"ray.io/cluster": "hrsynth"}
    runtime = yaml.safe_load(job["spec"]["runtimeEnvYAML"])
    assert runtime["working_dir"] and {".venv", ".git", "out"} <= set(runtime["excludes"])


def test_raycluster_has_a_cpu_head_and_autoscaling_gpu_workers():
    cluster = next(
        d for d in documents(CLUSTER / "kuberay" / "raycluster.yaml") if d["kind"] == "RayCluster"
    )
    head = cluster["spec"]["headGroupSpec"]["template"]["spec"]["containers"][0]
    assert "nvidia.com/gpu" not in head["resources"]["limits"]
    (group,) = cluster["spec"]["workerGroupSpecs"]
    worker = group["template"]["spec"]["containers"][0]
    assert worker["resources"]["limits"]["nvidia.com/gpu"] == 1
    assert group["minReplicas"] < group["maxReplicas"]
    assert cluster["spec"]["enableInTreeAutoscaling"] is True


def test_cronjobs_create_rayjobs_from_templates_that_exist():
    docs = documents(CLUSTER / "kuberay" / "cronjobs.yaml")
    templates = next(d for d in docs if d["kind"] == "ConfigMap")
    crons = [d for d in docs if d["kind"] == "CronJob"]
    assert {c["metadata"]["name"] for c in crons} == {"hrsynth-refresh", "hrsynth-evaluate"}
    for cron in crons:
        pod = cron["spec"]["jobTemplate"]["spec"]["template"]["spec"]
        command = pod["containers"][0]["command"]
        assert command[:3] == ["kubectl", "create", "-f"]
        assert Path(command[3]).name in templates["data"]
        assert pod["volumes"][0]["configMap"]["name"] == templates["metadata"]["name"]
        assert cron["spec"]["concurrencyPolicy"] == "Forbid"


def test_launcher_installs_the_way_the_readme_does():
    config = yaml.safe_load((CLUSTER / "ray-cluster.yaml").read_text())
    assert any("make install" in c for c in config["setup_commands"])
    types = config["available_node_types"]
    assert "GPU" not in types[config["head_node_type"]]["resources"]
    workers = [t for name, t in types.items() if name != config["head_node_type"]]
    assert workers and all(
        t["resources"].get("GPU") == 1 and t["max_workers"] > t["min_workers"] for t in workers
    )
    assert ".venv" in config["rsync_exclude"]


def test_served_generation_points_at_the_vllm_service_with_prefix_caching():
    from synth.config.generate import load_config

    docs = documents(CLUSTER / "kuberay" / "vllm-serve.yaml")
    deployment = next(d for d in docs if d["kind"] == "Deployment")
    service = next(d for d in docs if d["kind"] == "Service")
    (vllm,) = deployment["spec"]["template"]["spec"]["containers"]
    assert "--enable-prefix-caching" in vllm["args"]
    assert vllm["resources"]["limits"]["nvidia.com/gpu"] == 1  # one replica per GPU
    served = next(a.split("=", 1)[1] for a in vllm["args"] if a.startswith("--served-model-name"))
    (job,) = documents(CLUSTER / "kuberay" / "rayjob-generate-served.yaml")
    _, argv = entrypoint(job)
    cfg = load_config(str(ROOT / argv[argv.index("--config") + 1]))
    assert cfg.generator.model == f"openai:{served}"
    port = service["spec"]["ports"][0]["port"]
    assert cfg.generator.engine["base_url"] == f"http://{service['metadata']['name']}:{port}/v1"
    assert argv[argv.index("--device") + 1] == "cpu"  # the GPUs are the replicas'
    cluster = next(
        d for d in documents(CLUSTER / "kuberay" / "raycluster.yaml") if d["kind"] == "RayCluster"
    )
    pods = [cluster["spec"]["headGroupSpec"], *cluster["spec"]["workerGroupSpecs"]]
    for pod in pods:
        env = {e["name"] for e in pod["template"]["spec"]["containers"][0]["env"]}
        assert cfg.generator.engine["api_key_env"] in env
