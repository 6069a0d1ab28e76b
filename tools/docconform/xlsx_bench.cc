namespace docconform::cli { struct CommandGroups; void add_xlsx_bench_command(CommandGroups&) {} }
