"""Tools for developing wts: the differential fuzzer and the benchmarks."""
