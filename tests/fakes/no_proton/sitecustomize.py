# Makes this interpreter's Triton look older than 3.5: triton.profiler (Proton's Python
# side, with triton.profiler.language) cannot be imported. Used by tests/fakes/fake_python_no_proton.
import importlib.abc
import sys


class NoProton(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name == "triton.profiler" or name.startswith("triton.profiler."):
            raise ImportError("No module named %r (a Triton before 3.5)" % name)
        return None


sys.meta_path.insert(0, NoProton())
