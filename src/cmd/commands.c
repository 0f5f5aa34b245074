/* The command table (cmd/cmd.h): one row a command (cli/command.h), with its help
 * (cli/help.h): the global help lists them in this order, and the man page has a section for
 * each (scripts/gen-man.py). */
#include "cmd/cmd.h"

#include <stddef.h>

/* The option lines most commands that build and launch a kernel take (cli/help.c's sections). */
#define KERNEL_OPTIONS "Choosing the kernel|Building|Launch"
/* The option groups (cli/opts_*.c) of a command that builds and runs two kernels: the diff's. */
#define KERNEL_GROUPS "output|build|launch|timing|sanitize"
#define SUBJECT(kind) KD_SUBJECT_BIT(KD_SUBJECT_##kind)

const kd_cmd kd_cmds[] = {
    {KD_CMD_DIFF, "diff",
     {"diff", "two versions of a kernel (the default: no word), or git mode",
      "kerndiff [options] V1.cu V2.cu\n"
      "kerndiff [options] FILE.cu\n"
      "kerndiff [options] --at REF[..REF2] FILE.cu",
      "Builds both versions (CUDA C++, Triton, PTX or cubin) and shows what the\n"
      "compiler made of each: PTX and SASS instruction histograms, registers, spills,\n"
      "shared memory, barriers and the theoretical occupancy. With a GPU, times both\n"
      "(95% CI and a verdict) and compares their outputs. One file: git mode, HEAD (or\n"
      "--at REF) against the working copy; --at A..B compares two revisions.",
      KERNEL_OPTIONS "|Sweeps|Timing|Counters|Verifying|Regions|Hot spots|Workflows:--watch|Workflows:--at"
      "|Saving and gating|Correctness|Analysis|Output",
      "kerndiff examples/vector_loads/v1.cu examples/vector_loads/v2.cu\n"
      "kerndiff --fn add_v1:add_v2 --json=diff.json a.cu b.cu\n"
      "kerndiff --n 64M --arg alpha=2 --require-match old.cu new.cu\n"
      "kerndiff --at HEAD~1 kernel.cu"},
     .min_operands = 1, .max_operands = 2, .operands = kd_operands_diff,
     .groups = KERNEL_GROUPS "|replay|counters|regions|hotspots|workflow:--fail-if-slower,--sweep,--at,--watch",
     .flags = KD_CMDF_DEFAULT | KD_CMDF_CHECKS | KD_CMDF_WRITES, .subjects = SUBJECT(COMPARISON) | SUBJECT(SWEEP),
     .run = kd_cmd_diff},
    {KD_CMD_LIST, "list",
     {"list", "the kernels of a file, their parameters and launch",
      "kerndiff list FILE.cu",
      "The kernels a file defines, each with its parameters, their roles and the launch\n"
      "kerndiff would give it (the file's annotations and the launch options applied).",
      KERNEL_OPTIONS "|Output:--no-color",
      "kerndiff list examples/matmul/v2.cu\n"
      "kerndiff list --n 4096 --arg alpha=2 kernel.cu"},
     .min_operands = 1, .max_operands = 1, .operands = kd_operands_list,
     .groups = "output|build|launch",
     .flags = KD_CMDF_CHECKS, .run = kd_cmd_list},
    {KD_CMD_COMPARE, "compare",
     {"compare", "two saved runs (--save), v2 of each (--side v1 for v1)",
      "kerndiff compare [options] OLD.json NEW.json",
      "Two saved runs (--save): the same report, the speedup recomputed from their raw\n"
      "samples, their region tables diffed when both recorded regions.",
      "Workflows:--side|Saving and gating|Correctness|Analysis|Output",
      "kerndiff compare yesterday.json today.json\n"
      "kerndiff compare --side v1 --fail-if-slower 2 old.json new.json"},
     .min_operands = 2, .max_operands = 2, .operands = kd_operands_compare,
     .groups = "output|timing|workflow:--fail-if-slower,--side",
     .flags = KD_CMDF_CHECKS | KD_CMDF_WRITES, .subjects = SUBJECT(COMPARISON), .run = kd_cmd_compare},
    {KD_CMD_APP, "app",
     {"app", "two programs' GPU activity, kernel by kernel",
      "kerndiff app [options] CMD1 CMD2\n"
      "kerndiff app [options] --at REF [--at REF2] [--prepare BUILD] CMD\n"
      "kerndiff app [options] BEFORE.sqlite AFTER.sqlite",
      "Runs each command --runs times, alternating, with kerndiff's CUPTI collector\n"
      "injected, and diffs the two programs' GPU activity: kernels, copies,\n"
      "synchronisations, API calls, with 95% CIs and a verdict (docs/APP.md). Also two\n"
      "nsys SQLite exports, or one command at two git revisions (--at).",
      "Whole programs|Saving and gating:--fail-if-slower|Output",
      "kerndiff app --steps 100 \"./train --unfused\" \"./train --fused\"\n"
      "kerndiff app --at main --prepare 'make -j' './train --steps 50'"},
     .min_operands = 1, .max_operands = 2, .wanted = kd_operands_app_wanted, .operands = kd_operands_app,
     .groups = "output|app|workflow:--fail-if-slower,--at",
     .flags = KD_CMDF_CHECKS | KD_CMDF_WRITES, .subjects = SUBJECT(APP), .run = kd_cmd_app},
    {KD_CMD_CAPTURE, "capture",
     {"capture", "record a kernel's launch in a program, for --launch",
      "kerndiff capture --fn NAME [--nth K] [--continue] -o FILE -- CMD ARGS...",
      "Runs CMD (with a GPU) and records the NAME kernel's launch there: geometry,\n"
      "parameters and the program's data, for `kerndiff --launch FILE V1 V2`\n"
      "(docs/CAPTURE.md).",
      "Capturing|Choosing the kernel:--fn|Building:--nth|Building:--capture-timeout|Output:-q|Output:-v",
      "kerndiff capture --fn kernel3 -o k3.kdcap -- ./prog 3\n"
      "kerndiff capture --fn add -o add.kdcap -- python3 train.py"},
     .min_operands = 1, .max_operands = -1, .operands = kd_operands_capture,
     .groups = "capture|build:--fn,--nth,--capture-timeout|output:-q,-v,--force,--no-color",
     .flags = KD_CMDF_ARGV | KD_CMDF_CHECKS | KD_CMDF_WRITES, .run = kd_cmd_capture},
    {KD_CMD_RANK, "rank",
     {"rank", "many candidates against one baseline: correct, then fastest",
      "kerndiff rank [options] BASE CAND...",
      "Many candidates (files, folders, git revisions) against one baseline: the\n"
      "correct ones, then the fastest with confidence (docs/RANK.md); also as a Slurm\n"
      "job array.",
      "Ranking|" KERNEL_OPTIONS "|Timing|Correctness|Output",
      "kerndiff rank base.cu candidates/\n"
      "kerndiff rank --jobs 8 base.cu HEAD~1:base.cu HEAD~2:base.cu\n"
      "kerndiff rank --slurm '-p gpu -t 30' --wait base.cu candidates/"},
     .min_operands = 0, .max_operands = -1, .operands = kd_operands_rank,
     .groups = KERNEL_GROUPS "|replay|rank|slurm|app:--top",
     .flags = KD_CMDF_CHECKS | KD_CMDF_WRITES, .subjects = SUBJECT(RANK), .run = kd_cmd_rank},
    {KD_CMD_HELP, "help",
     {"help", "the help, of kerndiff or of one command",
      "kerndiff help [CMD]\n"
      "kerndiff CMD --help",
      "Every option (kerndiff --help), or one command's synopsis, options and examples.",
      "",
      "kerndiff help rank"},
     .min_operands = 0, .max_operands = 1, .run = kd_cmd_help},
    {KD_CMD_VERSION, "version", {0}, .flags = KD_CMDF_BY_OPTION, .run = kd_cmd_version},
    {KD_CMD_COMPLETION, "completion", {0}, .flags = KD_CMDF_BY_OPTION, .run = kd_cmd_completion},
    {0, NULL, {0}, 0, 0, NULL, NULL, NULL, 0, 0, NULL},
};
