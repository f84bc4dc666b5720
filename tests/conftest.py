import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

import torch_transpose  # noqa: E402,F401  (loading it registers the gputranspose ops)
from helpers import cuda_available_or_skip  # noqa: E402


def pytest_configure(config):
    config.addinivalue_line("markers", "cuda: needs a CUDA device (skipped without one)")


@pytest.fixture(autouse=True)
def _skip_cuda_tests_without_a_gpu(request):
    if request.node.get_closest_marker("cuda"):
        cuda_available_or_skip()
