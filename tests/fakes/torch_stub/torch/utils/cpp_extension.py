"""torch.utils.cpp_extension's include_paths, as newer torch spells it (device_type=), or as
older torch did (cuda=) with FAKE_TORCH_API=old; with FAKE_TORCH_CUDA_RAISES=1 the CUDA
call raises, as it does without a CUDA installation torch knows of. Extensions are built
with COMMON_FLAGS' standard (kerndiff reads it from this source)."""
import os

_HERE = os.path.dirname(os.path.abspath(__file__))
_INCLUDE = os.path.realpath(os.path.join(_HERE, "../../../../e2e/fixtures/torch_ext/include"))
COMMON_FLAGS = ["-std=c++17"]
COMMON_NVCC_FLAGS = ["-D__CUDA_NO_HALF_OPERATORS__", "--expt-relaxed-constexpr"]


def _paths(cuda):
    if cuda and os.environ.get("FAKE_TORCH_CUDA_RAISES"):
        raise OSError("CUDA_HOME environment variable is not set")
    return [_INCLUDE]


if os.environ.get("FAKE_TORCH_API") == "old":
    def include_paths(cuda=False):
        return _paths(cuda)
else:
    def include_paths(device_type="cpu"):
        return _paths(device_type == "cuda")
