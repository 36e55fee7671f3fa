# Verbs-only tests (label verbs). They skip (77) without an RDMA device; run them in the
# Soft-RoCE VM: launch/vsym-softroce -- launch/vsym-run -n 2 -- build/conformance/verbs_tp
vsym_add_mr_test(verbs_tp SOURCES mr/verbs_tp.c NP 2 LABELS verbs)
vsym_add_mr_test(verbs_cm SOURCES mr/verbs_tp.c NP 2 LABELS verbs)
target_compile_definitions(verbs_cm PRIVATE VERBS_TEST_CM=1)
vsym_add_mr_test(verbs_peer_death SOURCES mr/verbs_peer_death.c NP 2 LABELS verbs)
# Core-level exchange pattern of the collectives; runs on any transport (over verbs in the VM).
vsym_add_mr_test(verbs_phases SOURCES mr/verbs_phases.c NP 2 4 LABELS verbs)
vsym_add_mr_test(verbs_coll SOURCES mr/verbs_coll.c NP 2 LABELS verbs)
set(VSYM_VERBS_TESTS ${VSYM_VERBS_TESTS} verbs_tp verbs_cm verbs_peer_death verbs_phases verbs_coll
    CACHE INTERNAL "")
