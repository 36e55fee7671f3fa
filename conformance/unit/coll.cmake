# Pure pieces of lib/coll: conversions, reductions, topology formulas, autotune table.
vsym_add_unit_test(coll_pure SOURCES unit/coll_pure.c LABELS coll)
