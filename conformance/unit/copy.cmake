vsym_add_unit_test(copy_schedule SOURCES unit/copy_schedule.c LABELS copy)
vsym_add_unit_test(copy_match SOURCES unit/copy_match.c LABELS copy)
