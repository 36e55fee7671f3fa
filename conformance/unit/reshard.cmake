# Reshard planner unit tests (single process; plans for many ranks are computed locally).
vsym_add_unit_test(reshard_plan SOURCES unit/reshard_plan.c LABELS reshard)
target_compile_definitions(reshard_plan PRIVATE
                           VSYM_RESHARD_MODELS="${CMAKE_SOURCE_DIR}/lib/reshard/models")
vsym_add_unit_test(reshard_model SOURCES unit/reshard_model.c LABELS reshard)
# The planning tool at full scale, and its one-line errors.
add_test(NAME reshard_cli_405b
         COMMAND vsym-plan --model llama3-405b --from tp=8,pp=16,dp=8 --to tp=16,pp=8,dp=8
                 --world 1024 --rank 0)
set_tests_properties(reshard_cli_405b PROPERTIES LABELS "unit;reshard" TIMEOUT 60
                     PASS_REGULAR_EXPRESSION "rank 0 +[0-9]+ ops")
add_test(NAME reshard_cli_bad_layout
         COMMAND vsym-plan --model llama3-8b --from tp=8,pp=4,dp=2 --to tp=1 --world 32)
set_tests_properties(reshard_cli_bad_layout PROPERTIES LABELS "unit;reshard" TIMEOUT 60
                     PASS_REGULAR_EXPRESSION
                     "^vsym-plan: --from: .*tp\\*pp\\*dp must equal the world size \\(64 != 32\\)\n$")
add_test(NAME reshard_cli_model_file
         COMMAND vsym-plan --model-file ${CMAKE_SOURCE_DIR}/lib/reshard/models/tiny-moe.json
                 --from tp=2,pp=2,dp=2,ep=2 --to tp=4,pp=1,dp=2,ep=4,etp=1 --world 8 --rank 3)
set_tests_properties(reshard_cli_model_file PROPERTIES LABELS "unit;reshard" TIMEOUT 60
                     PASS_REGULAR_EXPRESSION "rank 3 +[0-9]+ ops")
add_test(NAME reshard_cli_zero_world
         COMMAND vsym-plan --model llama3-8b --from tp=2 --to tp=4 --world 0)
set_tests_properties(reshard_cli_zero_world PROPERTIES LABELS "unit;reshard" TIMEOUT 60
                     PASS_REGULAR_EXPRESSION
                     "^vsym-plan: --world 0: the source layout needs at least one rank\n$")
