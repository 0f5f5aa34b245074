# Real kernel files as published (tests/realfiles/): each runs `kerndiff list` and a static
# diff against itself with zero flags. Checks are added by tests/e2e/realfiles/*.sh.
for realfiles_file in tests/e2e/realfiles/*.sh; do
    [ -e "$realfiles_file" ] || continue
    source "$realfiles_file"
done
