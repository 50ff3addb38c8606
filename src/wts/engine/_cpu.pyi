"""Type stub of :mod:`wts.engine._cpu`, the CPU feature check."""

def cpu_level() -> int:
    """The x86-64 microarchitecture level (1 to 4) this CPU and OS support;
    1 on other CPUs."""
