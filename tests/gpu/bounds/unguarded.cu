// kerndiff: grid=n/256+64 block=256 x=n+16384 y=n
// An unguarded copy (no `if (i < n)`) launched with 64 blocks more than n needs, as a launch
// whose grid was guessed or typed wrong: 64 x 256 floats (64 KiB) written past y's end (x is
// sized to be read that far).
__global__ void copy(const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    y[i] = 2.f * x[i];
}
