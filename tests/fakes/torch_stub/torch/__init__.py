"""A stand-in for PyTorch (tests only; CI has no torch): what kerndiff asks of torch to build
a C++/CUDA extension file. Its include folder is tests/e2e/fixtures/torch_ext/include; FAKE_TORCH_VERSION sets its
version, and with FAKE_TORCH_LOG=FILE each import appends a line to FILE."""
import os

__version__ = os.environ.get("FAKE_TORCH_VERSION", "0.0.0+kerndiff.stub")

from . import _C  # noqa: E402,F401

if os.environ.get("FAKE_TORCH_LOG"):
    with open(os.environ["FAKE_TORCH_LOG"], "a") as log:
        log.write("imported\n")
