"""torch._C's ABI flag (the stand-in's: see torch/__init__.py)."""
_GLIBCXX_USE_CXX11_ABI = True
