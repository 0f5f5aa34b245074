"""Prints the folder holding cuobjdump/nvdisasm installed from PyPI (nvidia-cuda-cuobjdump),
or nothing. The Makefile puts it on PATH so that tests and demos find the SASS tools. kerndiff
itself does not need that PATH: wire/locate.c (kd_cuda_tool_path) looks in the same
nvidia/cuNN/bin folders of the usual site-packages without running Python, and in the folder
this prints when the Makefile passes it as KD_CUDA_TOOLS_DIR."""
import importlib.util
import pathlib

spec = importlib.util.find_spec("nvidia")
for root in (spec.submodule_search_locations if spec else []):
    for candidate in sorted(pathlib.Path(root).glob("cu*/bin")):
        if (candidate / "cuobjdump").exists():
            print(candidate)
            raise SystemExit(0)
