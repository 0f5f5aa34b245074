/* scan.h — find the __global__ kernels of a CUDA source and describe their parameters.
 *
 * The scanner is a tokenizer, not a C++ parser: it skips comments, string and character
 * literals and preprocessor lines, then recognises `__global__` declarations, whatever
 * comes around them (`extern "C"`, `template<...>`, `__launch_bounds__(...)`,
 * `[[attributes]]`, `__attribute__((...))`, `static`, `inline`, namespaces) and however many
 * lines the signature takes. A prototype and its definition count as one kernel.
 * Explicit instantiations (`template __global__ void k<float>(float*, int);`) are recorded
 * on the template they instantiate.
 *
 * Details the callers may rely on:
 *  - redeclarations merge when the qualified name and parameter shapes agree (overloads
 *    stay separate); the definition's names, types and line win, a prototype fills in
 *    what the definition leaves out (unnamed parameters, default arguments);
 *  - `template void k<float>(...)` (no __global__) and full specialisations
 *    `template <> __global__ void k<half>(...)` also add instantiations; `extern template`
 *    and instantiations with deduced arguments add none;
 *  - array parameters decay: `float x[]` is the pointer `float *`;
 *  - macros are not expanded: `#define G __global__` then `G void k()` finds nothing (the
 *    list's macro_kernels says that a directive mentions __global__), and both branches of
 *    an `#if` are read. */
#ifndef KD_SOURCE_SCAN_H
#define KD_SOURCE_SCAN_H

#include <stdbool.h>
#include <stddef.h>

/* How the compiled code uses a pointer parameter (read from its PTX: static/ptxflow.h,
 * source/compiled.h kd_compiled_uses). */
typedef enum kd_param_access {
    KD_ACCESS_UNKNOWN = 0, /* not read from compiled code: the role comes from `const` */
    KD_ACCESS_UNUSED,      /* never loaded nor stored through */
    KD_ACCESS_READ,        /* only loaded through */
    KD_ACCESS_WRITE,       /* stored through, never loaded */
    KD_ACCESS_READ_WRITE,  /* loaded and stored, or updated by atomics/reductions */
    KD_ACCESS_ESCAPES,     /* passed where the analysis cannot follow (a call, memory) */
} kd_param_access;

/* A buffer's use as the user declares it (`inputs=`/`outputs=`/`inouts=` annotations,
 * `--buf NAME=in|out|inout`); KD_USE_DEFAULT: decided by source/roles.h. */
typedef enum kd_buffer_use {
    KD_USE_DEFAULT = 0,
    KD_USE_IN,    /* seeded, not compared */
    KD_USE_OUT,   /* poisoned, compared */
    KD_USE_INOUT, /* seeded, compared */
} kd_buffer_use;

/* The type of a Triton kernel's tensor-descriptor parameter (source/pykernels.c): an object
 * the caller makes on the host (triton.tools.tensor_descriptor.TensorDescriptor), which no
 * flag gives: its launch is taken from a program that makes it. */
#define KD_TYPE_TENSOR_DESCRIPTOR "TensorDescriptor"

typedef struct kd_param {
    char *name;          /* "" when the parameter is unnamed */
    char *type;          /* the declared type, whitespace normalised: "const float *__restrict__" */
    char *pointee;       /* pointers only: the element type without cv/restrict ("float"); else NULL */
    bool is_pointer;
    bool is_const;       /* pointers: the pointee is const; scalars: the value is const */
    char *default_value; /* text after '=', or NULL */
    /* Pointers only; zero (unknown, default) unless set after the scan. */
    kd_param_access access;  /* from the compiled code */
    /* Integer scalars: the compiled code compares it with the global thread index (a PTX
       entry's bound, source/ptxcount.h): the element count, whatever its name. */
    bool bounds_index;
    /* Pointers: the kernel's body never writes through it nor lets it escape, as its source
       reads (source/body_writes.h); false when unsure or no body was seen. */
    bool unwritten_in_source;
    kd_buffer_use use;       /* declared by the user */
    const char *use_origin;  /* static text naming where `use` came from ("annotation", "--buf") */
} kd_param;

typedef struct kd_kernel {
    char *name;            /* unqualified name: "saxpy" */
    char *qualified;       /* with enclosing namespaces: "ns::saxpy" */
    kd_param *params;
    size_t nparams;
    bool extern_c;
    bool is_launcher;      /* a host function marked KERNDIFF_LAUNCHER (include/kerndiff/launcher.h) */
    bool is_template;
    char *template_params; /* text between template< and >, or NULL */
    char **instantiations; /* explicit instantiation arguments, e.g. "float" or "float, 4" */
    size_t ninstantiations;
    char *launch_bounds;   /* text inside __launch_bounds__( ), or NULL */
    int line;              /* 1-based line of the kernel's name */
    char *frontend_info;   /* what the backend that found it keeps for its build (Triton: the
                              helper's JSON description of the kernel), or NULL */
    char *signature;       /* read from a compiled entry (source/compiled.h): its demangled
                              signature "void copy<float>(float const*, float*, int)"; else NULL */
    bool from_compiled;    /* found only in the compiled code (declared through a macro): its
                              parameters are named p0, p1, ... by position */
    char *header;          /* the included file that declares it (its line is there), or NULL: the
                              scanned file itself */
} kd_kernel;

/* The marker of a custom launcher: a host function that launches kernels (or calls a
 * library) on the stream it is given; it is found and described like a kernel. */
#define KD_LAUNCHER_MARK "KERNDIFF_LAUNCHER"

typedef struct kd_kernel_list {
    kd_kernel *items;
    size_t count;
    bool macro_kernels;    /* a preprocessor line mentions __global__: a macro may declare
                              kernels this scan cannot see (source/compiled.h finds them) */
} kd_kernel_list;

/* Scans `len` bytes of `text` (need not be NUL-terminated). Returns 0; -1 only when `out`
 * is NULL (out of memory ends the command). Never fails on malformed input: what cannot be
 * read as a kernel is skipped. */
int kd_scan_source(const char *text, size_t len, kd_kernel_list *out);
/* The byte offsets of the opening `{` of every __global__ function definition in `text`
 * (kernels and kernel templates; not launchers, not explicit specialisations), in order:
 * where the region pass's instrumented build declares each kernel's record context.
 * *offsets is malloc'ed (NULL when none). */
void kd_scan_kernel_bodies(const char *text, size_t len, size_t **offsets, size_t *count);
void kd_kernel_list_free(kd_kernel_list *list);

/* The tokens this scanner reads, for other readers of CUDA code (source/geometry.c), so the
 * file has one tokenizer: comments and line splices (backslash-newline) dropped, string,
 * raw-string (R"d(...)d") and character literals one opaque token each, every punctuator
 * one byte except `::`. Preprocessor lines make no tokens: each is handed whole (its
 * splices and comments included) to `on_directive` when it is not NULL. */
typedef enum kd_src_token_kind {
    KD_SRC_IDENT, KD_SRC_NUMBER, KD_SRC_STRING, KD_SRC_CHAR, KD_SRC_PUNCT,
} kd_src_token_kind;
typedef struct kd_src_token {
    kd_src_token_kind kind;
    size_t off, len; /* the bytes text[off, off+len) */
    int line;        /* 1-based */
} kd_src_token;
typedef void kd_directive_fn(void *ctx, const char *from, const char *to);
/* Returns the number of tokens; *out is malloc'ed (NULL when none). */
size_t kd_scan_tokens(const char *text, size_t len, kd_src_token **out, kd_directive_fn *on_directive, void *ctx);
/* Frees what one kernel owns (for kernels built outside a list) and clears it. */
void kd_kernel_free(kd_kernel *k);
/* A deep copy of `from` into *to. */
void kd_kernel_copy(const kd_kernel *from, kd_kernel *to);

/* The kernel whose unqualified or qualified name is `name`, or NULL. A name with template
 * arguments also finds a kernel named with the same arguments spelled otherwise
 * ("tk<float,4>" finds "tk<float, 4u>", static/symbols.h). */
const kd_kernel *kd_kernel_find(const kd_kernel_list *list, const char *name);

#endif
