import pytest


@pytest.fixture(scope="module")
def ray_local():
    """A local Ray cluster of the module's own ("local": whatever an earlier `ray start`
    left recorded), shut down after it so the next module can start its own."""
    import ray

    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray
    ray.shutdown()
