// kerndiff: block=256 grid=ceil(n/256) n=64K
/* Memory-bound: c = a + b. At n = 64K it runs about 2 us on an H100 (placement moved it by
 * up to 4.6% there); at n = 16M about 80 us. bench/aa_campaign.sh times it against itself. */
__global__ void add(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}
