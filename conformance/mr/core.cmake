vsym_add_mr_test(core_smoke SOURCES mr/core_smoke.c NP 1 2 4)
