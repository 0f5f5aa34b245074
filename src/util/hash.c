#include "util/hash.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

void kd_hash_init(kd_hash *h) { sha256_init(&h->ctx); }

void kd_hash_field(kd_hash *h, const void *data, size_t len)
{
    uint8_t prefix[8];
    for (int i = 0; i < 8; i++)
        prefix[i] = (uint8_t)((uint64_t)len >> (8 * i));
    sha256_update(&h->ctx, sizeof prefix, prefix);
    sha256_update(&h->ctx, len, data);
}

void kd_hash_str(kd_hash *h, const char *s) { kd_hash_field(h, s, strlen(s)); }

void kd_hash_hex(kd_hash *h, char hex[65])
{
    uint8_t digest[SHA256_DIGEST_SIZE];
    sha256_digest(&h->ctx, sizeof digest, digest);
    for (int i = 0; i < SHA256_DIGEST_SIZE; i++)
        snprintf(hex + 2 * i, 3, "%02x", digest[i]);
}
