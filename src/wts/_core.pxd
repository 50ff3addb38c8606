# cython: language_level=3
# The C API's 0.1.0 path: `from wts._core cimport ...` keeps working. The API
# lives in wts/engine/_core.pxd; new code cimports it from wts.engine._core.
from wts.engine._core cimport *
