// kerndiff: block=256 grid=ceil(n/256) n=1M out=1
/* crossover, v1 — the sum of n integers with one atomicAdd per element on a single counter.
 * One launch, so it wins on tiny inputs; the atomics serialise on one address, so it loses
 * badly on large ones. v2 (two kernels: block sums, then one atomic per block) is the
 * opposite. A size sweep shows where the faster version changes:
 *     kerndiff --n 1K..64M:x8 examples/crossover/v1.cu examples/crossover/v2.cu
 * Integer sums are exact, so the outputs match bit for bit at every size. */
__global__ void sum(const int *x, unsigned long long *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(out, (unsigned long long)x[i]);
}
