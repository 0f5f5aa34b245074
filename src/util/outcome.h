/* outcome.h — what an engine call (backend, diff/, app/, workflow/) returns: success or
 * the kind of failure, the failure itself already printed or kept in a note. The engine
 * never names a process exit status: only cli/ turns an outcome into one
 * (kd_exit_code, cli/status.h), so an embedder can call the engine without kerndiff's
 * exit-status contract. */
#ifndef KD_UTIL_OUTCOME_H
#define KD_UTIL_OUTCOME_H

typedef enum kd_outcome {
    KD_OK = 0,
    KD_FAIL_USAGE,     /* a value the request cannot take (--arch, an app command's quoting) */
    KD_FAIL_INPUT,     /* a file is missing or unreadable, the kernel cannot be chosen or launched */
    KD_FAIL_BUILD,     /* a compiler (nvcc, ptxas, Triton) or --prepare failed on one side */
    KD_FAIL_RUNTIME,   /* a kernel faulted or hung, a harness or an app's command broke */
    KD_FAIL_TOOL,      /* a required tool is missing, or kerndiff's own environment failed */
    KD_FAIL_SANITIZER, /* --sanitize found a problem (and not --sanitize-warn) */
    KD_FAIL_NOT_EVALUATED, /* a gate asked of the run (--sanitize) could not be judged: nothing ran */
} kd_outcome;

#endif
