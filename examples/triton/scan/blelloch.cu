// CUDA <-> Triton pair, v1: a Blelloch (work-efficient) scan of each 1024-element block in
// shared memory. Blelloch's down-sweep yields an EXCLUSIVE scan: out[i] = in[0] + ... + in[i-1].
// Expected diff against scan.py (tl.cumsum, INCLUSIVE): "outputs differ" on the first element
// of every block (0 here, in[0] there) and every element after it (shifted by one), before
// any speedup is believed: the seed's story (a 3.21x "speedup" between different answers).
// kerndiff: n=1M block=512 grid=cdiv(n,1024)
#define TILE 1024

extern "C" __global__ void prefix_scan(const float *in, float *out, int n)
{
    __shared__ float s[TILE];
    int t = threadIdx.x, base = blockIdx.x * TILE;
    s[2 * t] = base + 2 * t < n ? in[base + 2 * t] : 0.0f;
    s[2 * t + 1] = base + 2 * t + 1 < n ? in[base + 2 * t + 1] : 0.0f;
    int offset = 1;
    for (int d = TILE >> 1; d > 0; d >>= 1) { // up-sweep: partial sums in place
        __syncthreads();
        if (t < d)
            s[offset * (2 * t + 2) - 1] += s[offset * (2 * t + 1) - 1];
        offset <<= 1;
    }
    if (t == 0)
        s[TILE - 1] = 0.0f; // the exclusive scan's identity
    for (int d = 1; d < TILE; d <<= 1) { // down-sweep
        offset >>= 1;
        __syncthreads();
        if (t < d) {
            int a = offset * (2 * t + 1) - 1, b = offset * (2 * t + 2) - 1;
            float x = s[a];
            s[a] = s[b];
            s[b] += x;
        }
    }
    __syncthreads();
    if (base + 2 * t < n)
        out[base + 2 * t] = s[2 * t];
    if (base + 2 * t + 1 < n)
        out[base + 2 * t + 1] = s[2 * t + 1];
}
