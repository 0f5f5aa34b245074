"""Prints the folder holding cuobjdump/nvdisasm installed from PyPI (nvidia-cuda-cuobjdump),
or nothing. The Makefile puts it on PATH so that tests and demos find the SASS tools."""
import importlib.util
import pathlib

spec = importlib.util.find_spec("nvidia")
for root in (spec.submodule_search_locations if spec else []):
    for candidate in sorted(pathlib.Path(root).glob("cu*/bin")):
        if (candidate / "cuobjdump").exists():
            print(candidate)
            raise SystemExit(0)
