// kerndiff: n=1024 A=n*n B=n*n C=n*n libs=cublas
/* cublas, v2 — the same product through cuBLAS: a custom launcher (<kerndiff/launcher.h>)
 * named like v1's kernel. cuBLAS is column-major, so row-major C = A B is computed as
 * C^T = B^T A^T, which is the same memory. The handle is made on the first call, during
 * kerndiff's warm-up, and bound to kerndiff's stream on every call. See v1.cu. */
#include <kerndiff/launcher.h>
#include <cublas_v2.h>

KERNDIFF_LAUNCHER void matmul(const float *A, const float *B, float *C, int n, cudaStream_t stream)
{
    static cublasHandle_t handle;
    if (!handle)
        cublasCreate(&handle);
    cublasSetStream(handle, stream);
    const float one = 1.0f, zero = 0.0f;
    cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, B, n, A, n, &zero, C, n);
}
