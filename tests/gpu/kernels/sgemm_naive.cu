// kerndiff: block=32,32 grid=ceil(n/32),ceil(n/32) n=4096 M=n N=n K=n alpha=1 beta=0 A=n*n B=n*n C=n*n
/* SGEMM_CUDA's kernel 1 (naive): one output element per thread, x from threadIdx.x, so
 * consecutive threads read rows of A apart (uncoalesced). At 4096^3 a launch takes about
 * 275 ms on an H100: issue 10's long kernel whose counters were once lost. */
__global__ void sgemm_naive(int M, int N, int K, float alpha, const float *A, const float *B, float beta, float *C)
{
    const unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < M && y < N) {
        float tmp = 0.0f;
        for (int i = 0; i < K; ++i)
            tmp += A[x * K + i] * B[i * N + y];
        C[x * N + y] = alpha * tmp + beta * C[x * N + y];
    }
}
