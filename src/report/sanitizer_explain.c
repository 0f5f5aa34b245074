/* A sanitizer finding worded (sanitizer/report.h's kd_san_explain): what the thread did,
 * where it landed (kd_san_locate's data) and which option most likely fixes the launch. */
#include <string.h>

#include "sanitizer/report.h"

static void where(const kd_san_finding *f, kd_strbuf *out)
{
    if (*f->file)
        kd_sb_printf(out, " at %s:%u", f->file, f->line);
    if (*f->function)
        kd_sb_printf(out, " (in %s)", f->function);
}

/* What was accessed: the buffer and element, shared memory, or an address in no buffer. */
static void landed(const kd_san_finding *f, const kd_san_place *p, kd_strbuf *out)
{
    if (p->buffer) {
        kd_sb_printf(out, " at %s[%lld]", p->buffer->arg->name, p->element);
        if (p->element >= (long long)p->elements)
            kd_sb_printf(out, ", %s its end (%llu elements)", p->element == (long long)p->elements ? "one past" : "past",
                         p->elements);
        else if (p->element < 0)
            kd_sb_puts(out, ", before its start");
    } else if (!strcmp(f->space, "shared")) {
        kd_sb_printf(out, " of shared memory at offset 0x%llx, outside the block's shared memory", f->address);
    } else if (f->has_address) {
        kd_sb_printf(out, " at 0x%llx, in no buffer of the launch", f->address);
    }
}

/* The likely fix: initialisation, --smem, the launch's size options, the block size. */
static void hint(const kd_san_finding *f, const kd_san_buffer *b, kd_strbuf *out)
{
    if (f->kind == KD_SAN_UNINITIALIZED)
        kd_sb_puts(out, b ? "; nothing wrote it before the kernel read it: is this an output buffer that is really "
                            "an input (a parameter without const)?"
                          : "; nothing wrote it before the kernel read it");
    else if (f->dynamic_shared && (f->smem_assumed || !strcmp(f->space, "shared")))
        kd_sb_printf(out, "; the kernel's dynamic shared memory (extern __shared__) is %llu B, %s: give the size it "
                     "needs with --smem BYTES%s%s%s", f->smem_bytes,
                     f->smem_assumed ? "assumed (one element a thread)" : "as set", b ? ", else --n, --buf " : "",
                     b ? b->arg->name : "", b ? "=... or --grid" : "");
    else if (b)
        kd_sb_printf(out, "; the launch probably needs --n, --buf %s=... or --grid", b->arg->name);
    else if (!strcmp(f->space, "shared"))
        kd_sb_puts(out, "; a --block larger than the kernel's shared arrays assume?");
}

void kd_san_explain(const kd_san_finding *f, const kd_san_buffer *buffers, size_t nbuffers, kd_strbuf *out)
{
    if (f->kind == KD_SAN_RACE) {
        kd_sb_printf(out, "a data race: %s access", f->access);
        where(f, out);
        kd_sb_printf(out, " against %s (%llu hazards): a missing __syncthreads() between them?", f->other, f->count);
        return;
    }
    if (f->has_thread)
        kd_sb_printf(out, "thread (%u,%u,%u) of block (%u,%u,%u) ", f->thread[0], f->thread[1], f->thread[2],
                     f->block[0], f->block[1], f->block[2]);
    if (f->kind == KD_SAN_BARRIER) {
        kd_sb_printf(out, "hit a barrier error (%s)", f->title);
        where(f, out);
        kd_sb_puts(out, ": a __syncwarp/__syncthreads that not every named thread reaches");
        return;
    }
    const char *verb = !strcmp(f->access, "write") ? "wrote" : !strcmp(f->access, "read") ? "read" : f->access;
    kd_sb_printf(out, "%s %u bytes", verb, f->size);
    kd_san_place p = kd_san_locate(f, buffers, nbuffers);
    landed(f, &p, out);
    where(f, out);
    hint(f, p.buffer, out);
    if (f->count > 1)
        kd_sb_printf(out, " (%llu such reports)", f->count);
}
