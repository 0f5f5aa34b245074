/* hash.h — SHA-256 of a sequence of byte strings, for content-addressed build caching. */
#ifndef KD_UTIL_HASH_H
#define KD_UTIL_HASH_H

#include <stddef.h>
#include <nettle/sha2.h>

typedef struct kd_hash {
    struct sha256_ctx ctx;
} kd_hash;

void kd_hash_init(kd_hash *h);
/* Adds a length-prefixed field, so ("ab","c") and ("a","bc") hash differently. */
void kd_hash_field(kd_hash *h, const void *data, size_t len);
void kd_hash_str(kd_hash *h, const char *s);
/* Writes 64 hex digits and a NUL into hex. */
void kd_hash_hex(kd_hash *h, char hex[65]);

#endif
