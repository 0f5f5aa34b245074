// kerndiff: block=256 grid=ceil(n/256) n=4M
/* scale.cu that spins for 20 s on the GPU clock before writing: a "hung" kernel that the
 * watchdog (--timeout) must stop. Bounded, so a lent GPU is never left busy for long. */
__global__ void scale(const float *x, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned long long start, now;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
    do
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
    while (now - start < 20000000000ull);
    if (i < n)
        out[i] = 2.0f * x[i];
}
