// prog_v2.cu — prog.cu with kernel3 changed (its A tile's rows padded to 33 floats, the dot
// product's loop unrolled): the same sums in the same order, so the same result bit for bit.
//
// prog.cu — a kernel-experiment program (issue 30 must-show; tests/gpu/replay_experiment/run.sh):
// one .cu whose main() sets the sizes, allocates and fills the matrices, and launches kernel
// version K chosen by its command line, as SGEMM experiment repositories do (kernel1 naive,
// kernel2 coalesced, kernel3 shared-memory tiles, kernel4 1D block tiling). All compute
// C = alpha * A * B + beta * C, each with its own summation order.
//
// usage: ./prog K    (K = 1..4)      build: nvcc -O2 -arch=sm_90 -o prog prog.cu
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

#define CEIL_DIV(a, b) (((a) + (b) - 1) / (b))

__global__ void kernel1(int M, int N, int K, float alpha, const float *A, const float *B, float beta, float *C)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < M && y < N) {
        float tmp = 0.0f;
        for (int i = 0; i < K; ++i)
            tmp += A[x * K + i] * B[i * N + y];
        C[x * N + y] = alpha * tmp + beta * C[x * N + y];
    }
}

__global__ void kernel2(int M, int N, int K, float alpha, const float *A, const float *B, float beta, float *C)
{
    const int x = blockIdx.x * 32 + (threadIdx.x / 32);
    const int y = blockIdx.y * 32 + (threadIdx.x % 32);
    if (x < M && y < N) {
        float tmp = 0.0f;
        for (int i = 0; i < K; ++i)
            tmp += A[x * K + i] * B[i * N + y];
        C[x * N + y] = alpha * tmp + beta * C[x * N + y];
    }
}

__global__ void kernel3(int M, int N, int K, float alpha, const float *A, const float *B, float beta, float *C)
{
    const int cRow = blockIdx.x, cCol = blockIdx.y;
    __shared__ float As[32 * 33]; // v2: rows padded to 33 floats
    __shared__ float Bs[32 * 32];
    const int threadCol = threadIdx.x % 32, threadRow = threadIdx.x / 32;
    A += cRow * 32 * K;
    B += cCol * 32;
    C += cRow * 32 * N + cCol * 32;
    float tmp = 0.0f;
    for (int bk = 0; bk < K; bk += 32) {
        As[threadRow * 33 + threadCol] = A[threadRow * K + threadCol];
        Bs[threadRow * 32 + threadCol] = B[threadRow * N + threadCol];
        __syncthreads();
        A += 32;
        B += 32 * N;
#pragma unroll
        for (int d = 0; d < 32; ++d)
            tmp += As[threadRow * 33 + d] * Bs[d * 32 + threadCol];
        __syncthreads();
    }
    C[threadRow * N + threadCol] = alpha * tmp + beta * C[threadRow * N + threadCol];
}

#define BM 64
#define BN 64
#define BK 8
#define TM 8

__global__ void kernel4(int M, int N, int K, float alpha, const float *A, const float *B, float beta, float *C)
{
    const int cRow = blockIdx.y, cCol = blockIdx.x;
    const int threadCol = threadIdx.x % BN, threadRow = threadIdx.x / BN;
    __shared__ float As[BM * BK];
    __shared__ float Bs[BK * BN];
    A += cRow * BM * K;
    B += cCol * BN;
    C += cRow * BM * N + cCol * BN;
    const int innerColA = threadIdx.x % BK, innerRowA = threadIdx.x / BK;
    const int innerColB = threadIdx.x % BN, innerRowB = threadIdx.x / BN;
    float results[TM] = {0.0f};
    for (int bk = 0; bk < K; bk += BK) {
        As[innerRowA * BK + innerColA] = A[innerRowA * K + innerColA];
        Bs[innerRowB * BN + innerColB] = B[innerRowB * N + innerColB];
        __syncthreads();
        A += BK;
        B += BK * N;
        for (int d = 0; d < BK; ++d) {
            const float b = Bs[d * BN + threadCol];
            for (int r = 0; r < TM; ++r)
                results[r] += As[(threadRow * TM + r) * BK + d] * b;
        }
        __syncthreads();
    }
    for (int r = 0; r < TM; ++r)
        C[(threadRow * TM + r) * N + threadCol] = alpha * results[r] + beta * C[(threadRow * TM + r) * N + threadCol];
}

#define CK(call)                                                                                   \
    do {                                                                                           \
        cudaError_t err_ = (call);                                                                 \
        if (err_ != cudaSuccess) {                                                                 \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(err_)); \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

static void run(int k, int M, int N, int K, float alpha, const float *A, const float *B, float beta, float *C)
{
    switch (k) {
    case 1:
        kernel1<<<dim3(CEIL_DIV(M, 32), CEIL_DIV(N, 32)), dim3(32, 32)>>>(M, N, K, alpha, A, B, beta, C);
        break;
    case 2:
        kernel2<<<dim3(CEIL_DIV(M, 32), CEIL_DIV(N, 32)), dim3(32 * 32)>>>(M, N, K, alpha, A, B, beta, C);
        break;
    case 3:
        kernel3<<<dim3(CEIL_DIV(M, 32), CEIL_DIV(N, 32)), dim3(32 * 32)>>>(M, N, K, alpha, A, B, beta, C);
        break;
    default:
        kernel4<<<dim3(CEIL_DIV(N, BN), CEIL_DIV(M, BM)), dim3((BM * BN) / TM)>>>(M, N, K, alpha, A, B, beta, C);
        break;
    }
    CK(cudaGetLastError());
}

int main(int argc, char **argv)
{
    const int k = argc > 1 ? atoi(argv[1]) : 0;
    if (k < 1 || k > 4) {
        fprintf(stderr, "usage: %s K   (the kernel version, 1..4)\n", argv[0]);
        return 2;
    }
    const int M = 1024, N = 1024, K = 1024, REPS = 10; // multiples of 64: every kernel's tiles fit
    const float alpha = 0.5f, beta = 3.0f;
    std::vector<float> hA((size_t)M * K), hB((size_t)K * N), hC((size_t)M * N);
    unsigned state = 12345u;
    auto next = [&state]() { // a fixed LCG: the same matrices on every run
        state = state * 1664525u + 1013904223u;
        return (float)(state >> 9) / (float)(1u << 23) - 0.5f;
    };
    for (float &v : hA)
        v = next();
    for (float &v : hB)
        v = next();
    for (float &v : hC)
        v = next();
    float *A, *B, *C;
    CK(cudaMalloc(&A, hA.size() * sizeof(float)));
    CK(cudaMalloc(&B, hB.size() * sizeof(float)));
    CK(cudaMalloc(&C, hC.size() * sizeof(float)));
    CK(cudaMemcpy(A, hA.data(), hA.size() * sizeof(float), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(B, hB.data(), hB.size() * sizeof(float), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(C, hC.data(), hC.size() * sizeof(float), cudaMemcpyHostToDevice));

    run(k, M, N, K, alpha, A, B, beta, C); // the first launch: the one `kerndiff --from` captures
    CK(cudaDeviceSynchronize());
    cudaEvent_t start, stop;
    CK(cudaEventCreate(&start));
    CK(cudaEventCreate(&stop));
    CK(cudaEventRecord(start));
    for (int r = 0; r < REPS; r++)
        run(k, M, N, K, alpha, A, B, beta, C);
    CK(cudaEventRecord(stop));
    CK(cudaEventSynchronize(stop));
    float ms = 0;
    CK(cudaEventElapsedTime(&ms, start, stop));
    double us = 1000.0 * ms / REPS;
    printf("kernel%d M=N=K=%d: %.1f us a launch, %.0f GFLOP/s\n", k, M, us, 2.0 * M * N * K / (us * 1e3));
    CK(cudaFree(A));
    CK(cudaFree(B));
    CK(cudaFree(C));
    return 0;
}
