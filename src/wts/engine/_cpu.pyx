"""What the CPU supports, read once by :mod:`wts.engine.kernels` to choose the
build of the core to load (``wts_cpu.h`` does the reading)."""

cdef extern from "wts_cpu.h" nogil:
    int wts_cpu_level()


def cpu_level():
    """The x86-64 microarchitecture level (1 to 4) this CPU and OS support;
    2 on AArch64 (NEON), 1 on other CPUs."""
    return wts_cpu_level()
