/* triton_launchable.h — `kerndiff list`'s word on a Triton kernel's launch as a diff that times
 * it takes it (issue 26): a kernel the file does not launch itself, one of whose tl.constexprs
 * nothing gives a value to (backend/triton_constexpr.h, the rule the diff follows), is not
 * launchable as described, said in the words the diff refuses it with. */
#ifndef KD_REPORT_TRITON_LAUNCHABLE_H
#define KD_REPORT_TRITON_LAUNCHABLE_H

#include <stdbool.h>

#include "launch/spec.h"
#include "source/annotation.h"
#include "source/scan.h"
#include "util/strbuf.h"

/* Whether a timed diff refuses Triton kernel k's launch as described (false for any other
 * kernel, and for one the file launches: its launch is taken from there); then the reason
 * into why. notes: the file's annotations; given: the launch flags (--arg); path: the file. */
bool kd_triton_list_refused(const kd_kernel *k, const kd_annotations *notes, const kd_launch_options *given,
                            const char *path, kd_strbuf *why);

/* The tl.constexprs of Triton kernel k that --arg gives a value (NAME=VALUE), into abi's
 * constants, so that the launch list shows takes them as the diff does (a meta-parameter,
 * not an unknown parameter). Nothing for any other kernel. Free with kd_launch_abi_free. */
void kd_triton_list_constants(const kd_kernel *k, const kd_launch_options *given, kd_launch_abi *abi);

/* The value flags or annotations give tl.constexpr `name` (as the diff reads it: --arg first,
 * then a `# kerndiff: NAME=VALUE` annotation), borrowed from given or notes, or NULL; *from:
 * "--arg" or "the file's annotation". */
const char *kd_triton_list_given_value(const char *name, const kd_annotations *notes, const kd_launch_options *given,
                                       const char **from);

#endif
