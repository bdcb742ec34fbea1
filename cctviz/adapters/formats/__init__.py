"""Readers of profile formats Hatchet does not read (folded stacks, perf, speedscope, trace
events, pprof, callgrind, Cube, HPCToolkit's new database, nsys and rocpd), each its own module
feeding one builder (:mod:`.calltree`) that makes a Hatchet GraphFrame."""
