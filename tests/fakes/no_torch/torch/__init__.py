"""A Python without torch, whatever this machine has installed (tests only)."""
raise ModuleNotFoundError("No module named 'torch'", name="torch")
