# The copy service end to end (shm here; verbs in the VM).
vsym_add_mr_test(copy_random SOURCES mr/copy_random.c NP 1 2 3 4 LABELS copy)
vsym_add_mr_test(copy_errors SOURCES mr/copy_errors.c NP 2 3 4 LABELS copy)
# The same with tasks up to 64 MiB.
vsym_add_mr_test(copy_random_slow SOURCES mr/copy_random.c NP 2 4 LABELS copy slow TIMEOUT 600)
target_compile_definitions(copy_random_slow PRIVATE COPY_TEST_SLOW=1)
